import APTTestSupport
import Foundation
import InstallDrivers
import Testing

/// `installtop dnf` in the monitor, in tmux: the plan as the queued job and its question, a
/// bar per package, scriptlet output under its package, and the stop while rpm runs said as
/// the kind says it. Nothing of the host's rpm or dnf state changes.
@Suite("installtop dnf: the monitor", .serialized)
struct DNFMonitorEndToEndTests {
    @Test("The plan's question, a stop during rpm's transaction that waits for its end, every package done, exit 3")
    func planAndStopDuringRPM() async throws {
        let host = HostRPMFingerprint()
        try PrivateDNFRoot.requireTools()
        let root = try PrivateDNFRoot(temporaryWithPrefix: "itop-dnf-monitor")
        defer { root.remove() }
        try root.publish([DNFTestLab.printer, DNFTestLab.slow])
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let binary = try EndToEndFolder.binary()
        let tmux = try TmuxSession(width: 120, height: 32, home: folder.url, command:
            "'\(binary)' dnf install lab-print lab-slow --no-history --installroot '\(root.root)' --releasever 1; echo $? > '\(folder.path("rc"))'; sleep 3600")
        defer { tmux.close() }
        await tmux.waitForScreen("the plan's question") { $0.contains("Start dnf install lab-print lab-slow") }
        tmux.send("y")
        await tmux.waitForScreen("rpm in lab-slow's %post") { screen in
            screen.split(separator: "\n").contains { $0.contains("lab-slow 1.0-1") && $0.contains("running scriptle") }
        }
        tmux.send("a")
        // The kind's stop note is the question.
        await tmux.waitForScreen("the abort's question") { $0.contains("once rpm runs, the stop") }
        tmux.send("y")
        await tmux.waitForScreen("the stop waits") { $0.contains("rpm's transaction goes on to its en") }
        tmux.send("a")
        // The job's own row (the status line's "Forcing the abort of…" may be gone by then under load).
        await tmux.waitForScreen("the force refused") { $0.contains("forced stop refused") }
        #expect(FileManager.default.createFile(atPath: root.root + DNFTestLab.slowKnob, contents: Data()))
        await tmux.waitForScreen("every package done") { $0.contains("0 running") && $0.contains("2/2 updates") }
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "3", "aborted")
        #expect(root.installedVersions(of: "lab-slow") == ["1.0-1"] && root.installedVersions(of: "lab-print") == ["1.0-1"])
        #expect(HostRPMFingerprint().changes(since: host).isEmpty)
    }
}
