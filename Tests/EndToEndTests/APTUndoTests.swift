import APTTestSupport
import Foundation
import Testing

/// `installtop apt undo JOBRUN` through the real binary in a private apt root (APT_CONFIG): the
/// old versions come back from the kept files after the archive dropped them, as an uninstall
/// job that names the run it undoes, and the refusals change nothing. The host's packages are
/// never touched (fingerprinted).
@Suite("installtop apt undo", .serialized)
struct APTUndoTests {
    private static func lab(_ version: String) -> [TestPackage] {
        [
            TestPackage(name: "lab-base", version: version, files: ["/usr/share/lab-base/data": "base \(version)\n"]),
            TestPackage(name: "lab-app", version: version, depends: "lab-base (= \(version))",
                        files: ["/etc/lab-app.conf": "setting = \(version)\n", "/usr/bin/lab-app": "#!/bin/sh\necho \(version)\n"],
                        conffiles: ["/etc/lab-app.conf"]),
            TestPackage(name: "lab-tool", version: version, files: ["/usr/share/lab-tool/data": "tool \(version)\n"]),
        ]
    }

    /// A root with the lab at 1.0 (the conffile edited), upgraded to 2.0 by installtop, the 1.0
    /// .debs gone from the archive; returns the upgrade's run id.
    private static func upgraded(_ apt: APTTestRoot, database: String, in folder: TestFolder) async throws -> Int {
        try apt.publish(lab("1.0"))
        try apt.aptGet(["install", "-y", "lab-app", "lab-tool"], check: true)
        try "setting = mine\n".write(toFile: apt.root + "/etc/lab-app.conf", atomically: true, encoding: .utf8)
        try apt.aptGet(["clean"], check: true)
        try apt.publish(lab("2.0"))
        for package in lab("1.0") { try FileManager.default.removeItem(atPath: apt.repository + "/" + package.fileName) }
        try apt.publish([])
        let upgrade = try await installtop(["apt", "upgrade", "--yes", "--json", "--apt-config", apt.configuration, "--history-db", database],
                                           in: folder, timeout: .seconds(180))
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
        return try #require((runs.first?["run"] as? NSNumber)?.intValue)
    }

    @Test("An upgrade undone after the archive dropped 1.0: every package back at 1.0, the audit clean, the edit kept; the run marked undone")
    func undoAnUpgrade() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        let run = try await Self.upgraded(apt, database: database, in: folder)
        let gone = try apt.aptGet(["install", "-s", "--allow-downgrades", "lab-app=1.0", "lab-base=1.0"])
        #expect(gone.status != 0, "apt alone cannot put 1.0 back: \(gone.stdout)")

        // Off a terminal without --yes: the plan, downgrades said as such, and nothing run.
        let asked = try await installtop(["apt", "undo", String(run), "--apt-config", apt.configuration, "--history-db", database], in: folder)
        #expect(asked.status == 1, "\(asked.stderr)")
        #expect(asked.stdout.contains("The following packages will be DOWNGRADED:\n"), "\(asked.stdout)")
        #expect(asked.stdout.contains("  lab-app 2.0 → 1.0"), "\(asked.stdout)")
        #expect(asked.stdout.contains(" to downgrade") && !asked.stdout.contains("to upgrade") && !asked.stdout.contains("to download"),
                "the counts say downgrades, from the kept files: \(asked.stdout)")
        #expect(try apt.states()["lab-app"]?.version == "2.0")

        let undo = try await installtop(["apt", "undo", String(run), "--yes", "--json", "--apt-config", apt.configuration,
                                         "--history-db", database], in: folder, timeout: .seconds(180))
        #expect(undo.status == 0, "stdout: \(undo.stdout)\nstderr: \(undo.stderr)")
        let events = try undo.jsonEvents()
        let queued = try #require(events.first { $0.name == "job.queued" })
        #expect(queued.string("operation") == "uninstall")
        #expect(queued.int("undoOf") == run)
        let titles = (queued.fields["updates"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }.sorted()
        #expect(titles == ["lab-app 2.0 → 1.0", "lab-base 2.0 → 1.0", "lab-tool 2.0 → 1.0"], "\(titles)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "1.0", "lab-app": "1.0", "lab-tool": "1.0"])
        #expect(try apt.states().values.allSatisfy { $0.status == "ii" })
        #expect(try apt.audit().isEmpty)
        #expect(try String(contentsOfFile: apt.root + "/etc/lab-app.conf", encoding: .utf8) == "setting = mine\n")
        // lab-base came in as lab-app's dependency: still automatic after the local .debs.
        let automatic = try TestCommand.run(["/usr/bin/apt-mark", "showauto"], environment: apt.environment).stdout
        #expect(automatic == "lab-base\n", "\(automatic)")

        let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
        let undoRun = try #require(runs.first)
        let original = try #require(runs.first { ($0["run"] as? NSNumber)?.intValue == run })
        let undoID = try #require((undoRun["run"] as? NSNumber)?.intValue)
        #expect((undoRun["undoOf"] as? NSNumber)?.intValue == run && undoRun["operation"] as? String == "uninstall")
        #expect((original["undoneBy"] as? NSNumber)?.intValue == undoID)
        #expect(original["undoable"] as? Bool == false && original["notUndoableBecause"] as? String == "undone already by run \(undoID)")

        // Undone once: a second undo is refused, changing nothing.
        let again = try await installtop(["apt", "undo", String(run), "--yes", "--apt-config", apt.configuration, "--history-db", database],
                                         in: folder)
        #expect(again.status == 2 && again.stderr.contains("undone already by run \(undoID)"), "\(again.stderr)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Refusals change nothing and say what to do (exit 2): no such run, a later run changed a package, a package changed outside installtop")
    func refusals() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        let run = try await Self.upgraded(apt, database: database, in: folder)
        let arguments = ["--yes", "--apt-config", apt.configuration, "--history-db", database]

        let unknown = try await installtop(["apt", "undo", "99"] + arguments, in: folder)
        #expect(unknown.status == 2 && unknown.stderr.contains("the history holds no run 99"), "\(unknown.stderr)")

        try apt.aptGet(["remove", "-y", "lab-tool"], check: true)
        let outside = try await installtop(["apt", "undo", String(run)] + arguments, in: folder)
        #expect(outside.status == 2, "\(outside.stderr)")
        #expect(outside.stderr.contains("lab-tool was changed outside installtop since run \(run): dpkg has it not installed now"),
                "\(outside.stderr)")

        try apt.publish([TestPackage(name: "lab-tool", version: "3.0")])
        let later = try await installtop(["apt", "install", "lab-tool", "--json"] + arguments, in: folder, timeout: .seconds(180))
        #expect(later.status == 0, "\(later.stderr)")
        let laterRun = try #require((try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder)
            .jsonObjects().first?["run"] as? NSNumber)?.intValue)
        let blocked = try await installtop(["apt", "undo", String(run)] + arguments, in: folder)
        #expect(blocked.status == 2 && blocked.stderr.contains("run \(laterRun) changed lab-tool again: undo run \(laterRun) first"), "\(blocked.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0", "lab-tool": "3.0"])

        // Undoing the later run (an install: removed again) lets the first be undone.
        let undoLater = try await installtop(["apt", "undo", String(laterRun), "--json"] + arguments, in: folder, timeout: .seconds(180))
        #expect(undoLater.status == 0, "\(undoLater.stderr)")
        #expect(try apt.states()["lab-tool"].map { $0.status != "ii" } ?? true, "lab-tool removed again")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A remove job undone after the archive dropped the version: the package is back as it was, from its rebuilt kept .deb")
    func undoARemoval() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        let arguments = ["--yes", "--json", "--apt-config", apt.configuration, "--history-db", database]
        try apt.publish(Self.lab("1.0"))
        try apt.aptGet(["install", "-y", "lab-tool"], check: true)
        let removal = try await installtop(["apt", "remove", "lab-tool"] + arguments, in: folder, timeout: .seconds(180))
        #expect(removal.status == 0, "\(removal.stderr)")
        try FileManager.default.removeItem(atPath: apt.repository + "/lab-tool_1.0_all.deb")
        try apt.publish([])
        let run = try #require((try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder)
            .jsonObjects().first?["run"] as? NSNumber)?.intValue)

        let undo = try await installtop(["apt", "undo", String(run)] + arguments, in: folder, timeout: .seconds(180))
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(try apt.states()["lab-tool"].map { "\($0.status) \($0.version)" } == "ii 1.0")
        #expect(try String(contentsOfFile: apt.root + "/usr/share/lab-tool/data", encoding: .utf8) == "tool 1.0\n")
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
