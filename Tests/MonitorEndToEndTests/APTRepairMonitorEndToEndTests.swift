import APTTestSupport
import Foundation
import Testing

/// A forced abort whose repair cannot succeed, in a real terminal (tmux) in a private apt root:
/// the cut package's row says dpkg is left broken, the summary left after `q` names the
/// command that repairs it, and installtop exits 5. The host's packages are never touched.
@Suite("installtop apt in the monitor: dpkg left broken", .serialized)
struct APTRepairMonitorEndToEndTests {
    @Test("a, y, a during the runtime's preinst, a postinst that fails once cut: the row and the summary say dpkg is left broken, exit 5")
    func leftBroken() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot.brokenUpgrade()
        defer { apt.remove() }
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let binary = try EndToEndFolder.binary()
        let tmux = try TmuxSession(width: 160, height: 30, home: folder.url, command:
            "'\(binary)' apt install lab-rt lab-kit --no-history --apt-config '\(apt.configuration)'; \(folder.exitStatus(to: "rc")); sleep 3600")
        defer { tmux.close() }

        await tmux.waitForScreen("the plan's question") { $0.contains("Start apt install lab-rt lab-kit") }
        tmux.send("y")
        #expect(await EndToEndFolder.eventually { FileManager.default.fileExists(atPath: apt.root + "/tmp/held") })
        tmux.send("a")
        await tmux.waitForScreen("the abort question") { $0.contains("Abort") }
        tmux.send("y")
        await tmux.waitForScreen("the package finishing first") { $0.contains("stopping after") }
        tmux.send("a")
        // The job's row says the repair's outcome while the job still runs: wait for the job to
        // have completed, so that q quits without asking.
        let broken = await tmux.waitForScreen("the row saying dpkg is left broken") { $0.contains("dpkg is left broken") && $0.contains("0 running") }
        #expect(broken?.split(separator: "\n").contains { $0.contains("lab-rt") && $0.contains("dpkg is left broken") } == true, "\(broken ?? "")")
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "5")
        // The summary left on the normal screen ends in the command that repairs dpkg (the
        // summary goes on with a long line on indented lines, and tmux wraps what is wider than
        // its window: compare without either).
        let screen = tmux.capture().replacingOccurrences(of: "\n    ", with: " ").replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("apt-get -f --reinstall install lab-kit lab-rt` to repair it"), "\(tmux.capture())")
        #expect(!(try apt.audit()).isEmpty, "the root was not left broken: the test proves nothing")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
