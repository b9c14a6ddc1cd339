import APTTestSupport
import Foundation
import Testing

/// `u` in the monitor's history view (issue 35 item 5), in a real terminal (tmux), in a private
/// apt root: the job runs list, the undo's plan dialog with its downgrades, and the undo run as
/// an uninstall job of the monitor's engine (this process's, and an attached `serve`'s), after
/// the archive dropped the old versions. The host's packages are never touched (fingerprinted).
@Suite("Undo from the monitor's history view", .serialized)
struct APTUndoMonitorEndToEndTests {
    private static func lab(_ version: String) -> [TestPackage] {
        [
            TestPackage(name: "lab-base", version: version, files: ["/usr/share/lab-base/data": "base \(version)\n"]),
            TestPackage(name: "lab-app", version: version, depends: "lab-base (= \(version))",
                        files: ["/usr/share/lab-app/data": "app \(version)\n"]),
        ]
    }

    /// The lab at 1.0, upgraded to 2.0 by installtop (run 1 of `database`), the 1.0 .debs gone
    /// from the archive and apt's cache; `lab-extra` published to give the monitor a job.
    private static func upgraded(_ apt: APTTestRoot, database: String, in folder: EndToEndFolder) async throws {
        try apt.publish(lab("1.0"))
        try apt.aptGet(["install", "-y", "lab-app"], check: true)
        try apt.aptGet(["clean"], check: true)
        try apt.publish(lab("2.0"))
        for package in lab("1.0") { try FileManager.default.removeItem(atPath: apt.repository + "/" + package.fileName) }
        try apt.publish([TestPackage(name: "lab-extra")])
        let upgrade = try await InstalltopChild.run(["apt", "upgrade", "--yes", "--json", "--apt-config", apt.configuration,
                                                     "--history-db", database], in: folder)
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0"])
    }

    /// Selects run 1 in the open monitor's runs list (run 2, newest, is `secondRun`), undoes it
    /// with `u` and `y`, and waits for dpkg to have 1.0 back.
    private static func undoRunOne(_ tmux: TmuxSession, apt: APTTestRoot, secondRun: String) async throws {
        tmux.send("h")
        await tmux.waitForScreen("the history view") { $0.contains("Tab job runs") }
        tmux.send("Tab")
        let runs = try #require(await tmux.waitForScreen("the runs") { $0.contains("job runs · 2 runs") })
        #expect(runs.contains("apt upgrade") && runs.contains(secondRun), "\(runs)")
        tmux.send("Down")
        await tmux.waitForScreen("run 1 selected, its packages under the list") { $0.contains("lab-app 1.0 → 2.0") }
        tmux.send("u")
        let question = try #require(await tmux.waitForScreen("the undo's plan dialog") { $0.contains("Start apt undo 1") })
        #expect(question.contains("lab-app 2.0 → 1.0") && question.contains("lab-base 2.0 → 1.0"), "\(question)")
        #expect(try apt.states()["lab-app"]?.version == "2.0", "nothing runs before the yes")
        tmux.send("y")
        let back = await EndToEndFolder.eventually { (try? apt.states().mapValues(\.version))?["lab-app"] == "1.0" }
        #expect(back, "\(tmux.capture())")
        await tmux.waitForScreen("the undo's job ended") { $0.contains("0 running") }
    }

    /// What the history says once run 1 was undone: by run 3, an uninstall job that undid it.
    private static func expectRunOneUndone(database: String, in folder: EndToEndFolder) async throws {
        let listed = try await InstalltopChild.run(["history", "--jobs", "--json", "--history-db", database], in: folder)
        let runs = listed.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let original = try #require(runs.first { ($0["run"] as? NSNumber)?.intValue == 1 })
        let undo = try #require(runs.first { ($0["undoOf"] as? NSNumber)?.intValue == 1 })
        #expect(undo["operation"] as? String == "uninstall" && undo["result"] as? String == "succeeded", "\(undo)")
        #expect((original["undoneBy"] as? NSNumber)?.intValue == (undo["run"] as? NSNumber)?.intValue, "\(original)")
    }

    @Test("u on a run in `installtop apt`'s monitor: the plan dialog, then the old versions back from the kept files")
    func undoFromTheLocalMonitor() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let database = folder.path("history.sqlite3")
        try await Self.upgraded(apt, database: database, in: folder)

        let binary = try EndToEndFolder.binary()
        let tmux = try TmuxSession(width: 110, height: 30, home: folder.url, command:
            "'\(binary)' apt install lab-extra --history-db '\(database)' --apt-config '\(apt.configuration)'; \(folder.exitStatus(to: "rc")); sleep 3600")
        defer { tmux.close() }
        await tmux.waitForScreen("the plan's question") { $0.contains("Start apt install lab-extra") }
        tmux.send("y")
        await tmux.waitForScreen("lab-extra installed") { $0.contains("succeeded") && $0.contains("0 running") }
        try await Self.undoRunOne(tmux, apt: apt, secondRun: "apt install lab-extra")
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc") == "0\n", "\(tmux.capture())")

        #expect(try apt.states().mapValues(\.version) == ["lab-base": "1.0", "lab-app": "1.0", "lab-extra": "1.0"])
        #expect(try apt.audit().isEmpty)
        let automatic = try TestCommand.run(["/usr/bin/apt-mark", "showauto"], environment: apt.environment).stdout
        #expect(automatic == "lab-base\n", "lab-base came as a dependency and stays automatic: \(automatic)")
        try await Self.expectRunOneUndone(database: database, in: folder)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("u in a monitor attached to `serve`: the engine plans the undo with its history and dpkg, the monitor asks")
    func undoFromAnAttachedMonitor() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let database = folder.path("history.sqlite3")
        try await Self.upgraded(apt, database: database, in: folder)
        try apt.aptGet(["install", "-y", "lab-extra"], check: true)
        // A second run so the list reads as in the local test: lab-extra removed by installtop.
        let removal = try await InstalltopChild.run(["apt", "remove", "lab-extra", "--yes", "--json", "--apt-config", apt.configuration,
                                                     "--history-db", database], in: folder)
        #expect(removal.status == 0, "\(removal.stderr)")

        let socket = folder.path("engine.sock")
        let engine = try InstalltopChild(["serve", "--socket", socket, "--history-db", database, "--apt-config", apt.configuration],
                                         in: folder)
        #expect(await EndToEndFolder.eventually { FileManager.default.fileExists(atPath: socket) }, "\(engine.stderr)")
        let binary = try EndToEndFolder.binary()
        let tmux = try TmuxSession(width: 110, height: 30, home: folder.url, command:
            "'\(binary)' attach --socket '\(socket)'; \(folder.exitStatus(to: "rc")); sleep 3600")
        defer { tmux.close() }
        await tmux.waitForScreen("the attached monitor") { $0.contains("installtop") && $0.contains("help") }
        // The runs come from the engine (its `runs` command), the plan from its `undo`.
        try await Self.undoRunOne(tmux, apt: apt, secondRun: "apt remove lab-extra")
        tmux.send("d")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc") == "0\n")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "1.0", "lab-app": "1.0"])
        #expect(try apt.audit().isEmpty)
        try await Self.expectRunOneUndone(database: database, in: folder)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
