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
            "'\(binary)' dnf install lab-print lab-slow --no-history --installroot '\(root.root)' --releasever 1; \(folder.exitStatus(to: "rc")); sleep 3600")
        defer { tmux.close() }
        // Whatever happens, lab-slow's %post ends (before the root goes).
        defer { _ = FileManager.default.createFile(atPath: root.root + DNFTestLab.slowKnob, contents: Data()) }
        await tmux.waitForScreen("the plan's question") { $0.contains("Start dnf install lab-print lab-slow") }
        tmux.send("y")
        await tmux.waitForScreen("rpm in lab-slow's %post") { screen in
            screen.split(separator: "\n").contains { $0.contains("lab-slow 1.0-1") && $0.contains("running %post") }
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

    @Test("u in the history view undoes a dnf run whose old versions the repository dropped: the plan dialog with its downgrades, then the rpm database has them back")
    func undoFromTheHistoryView() async throws {
        let host = HostRPMFingerprint()
        try PrivateDNFRoot.requireTools()
        let root = try PrivateDNFRoot(temporaryWithPrefix: "itop-dnf-undo")
        defer { root.remove() }
        try root.publish([DNFTestLab.library("1.0"), DNFTestLab.application("1.0"), DNFTestLab.printer])
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let binary = try EndToEndFolder.binary()
        let database = folder.path("history.sqlite3")
        let rootArguments = ["--installroot", root.root, "--releasever", root.releaseVersion, "--history-db", database]
        let install = try await InstalltopChild.run(["dnf", "install", "lab-app", "--yes", "--json"] + rootArguments, in: folder)
        #expect(install.status == 0, "\(install.stderr)")
        try root.publish([DNFTestLab.library("2.0"), DNFTestLab.application("2.0")])
        let upgrade = try await InstalltopChild.run(["dnf", "upgrade", "lab-app", "lab-lib", "--yes", "--json"] + rootArguments, in: folder)
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        try root.withdraw(DNFTestLab.library("1.0"))
        try root.withdraw(DNFTestLab.application("1.0"))

        let tmux = try TmuxSession(width: 140, height: 36, home: folder.url, command:
            "'\(binary)' dnf install lab-print \(rootArguments.map { "'\($0)'" }.joined(separator: " ")); \(folder.exitStatus(to: "rc")); sleep 3600")
        defer { tmux.close() }
        await tmux.waitForScreen("the plan's question") { $0.contains("Start dnf install lab-print") }
        tmux.send("y")
        await tmux.waitForScreen("lab-print installed") { $0.contains("0 running") && $0.contains("1/1 updates") }
        tmux.send("h")
        await tmux.waitForScreen("the history view") { $0.contains("Tab job runs") }
        tmux.send("Tab")
        await tmux.waitForScreen("the runs") { $0.contains("job runs · 3 runs") }
        tmux.send("Down")
        await tmux.waitForScreen("run 2 selected, its packages under the list") { $0.contains("lab-app 1.0-1 → 2.0-1") }
        tmux.send("u")
        let question = try #require(await tmux.waitForScreen("the undo's plan dialog") { $0.contains("Start dnf undo 2") })
        #expect(question.contains("lab-app 2.0-1 → 1.0-1") && question.contains("lab-lib 2.0-1 → 1.0-1"), "\(question)")
        #expect(root.installedVersions(of: "lab-app") == ["2.0-1"], "nothing runs before the yes")
        tmux.send("y")
        let back = await EndToEndFolder.eventually { root.installedVersions(of: "lab-app") == ["1.0-1"] && root.installedVersions(of: "lab-lib") == ["1.0-1"] }
        #expect(back, "\(tmux.capture())")
        await tmux.waitForScreen("the undo's job ended") { $0.contains("0 running") && $0.contains("3/3 updates") }
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil }, "\(tmux.capture())")
        let listed = try await InstalltopChild.run(["history", "--jobs", "--json", "--history-db", database], in: folder)
        let upgradeRun = try listed.stdout.split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.first { $0["run"] as? Int == 2 }
        #expect(upgradeRun?["undoneBy"] as? Int == 4, "\(listed.stdout)")
        #expect(HostRPMFingerprint().changes(since: host).isEmpty)
    }
}
