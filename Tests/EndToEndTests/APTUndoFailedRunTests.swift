import APTTestSupport
import Foundation
import Glibc
import Testing

/// Undoing a run that failed (issue 55): a package whose postinst failed is left by dpkg at the
/// run's new version, half-configured, and the undo puts it back from the version kept ahead of
/// the transaction, removes a failed install dpkg has, and says what it leaves (no kept
/// version) before the yes, and in the job's name where the engine plans it (the board's `u`).
/// Through the real binary in private roots; the host's packages are never touched.
@Suite("installtop apt undo of a failed run", .serialized)
struct APTUndoFailedRunTests {
    /// The lab at 1.0, then upgraded to 2.0 by installtop where lab-tool 2.0's postinst fails:
    /// the run fails, lab-tool is left half-configured at 2.0; returns the run's id. Recorded in
    /// `database` (the lab's by default).
    private static func failedUpgrade(_ lab: UndoLab, database: String? = nil) async throws -> Int {
        try lab.installVersionOne()
        var packages = UndoLab.packages("2.0")
        packages[2].postinst = "echo lab-tool cannot start >&2; exit 1"
        try lab.apt.publish(packages)
        let arguments = ["--yes", "--json", "--apt-config", lab.apt.configuration, "--history-db", database ?? lab.database]
        let upgrade = try await installtop(["apt", "upgrade"] + arguments, in: lab.folder, timeout: .seconds(180))
        #expect(upgrade.status == 1, "the upgrade fails: \(upgrade.stdout)\(upgrade.stderr)")
        let states = try lab.states()
        try #require(states == ["lab-base": "ii 2.0", "lab-app": "ii 2.0", "lab-tool": "iF 2.0"], "\(states)")
        let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database ?? lab.database], in: lab.folder).jsonObjects()
        return try #require((runs.first?["run"] as? NSNumber)?.intValue)
    }

    @Test("A failed upgrade undone: the half-configured package is put back from its kept 1.0 with the others, dpkg consistent")
    func failedPackagePutBack() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let run = try await Self.failedUpgrade(lab)
        let listed = try #require(try await lab.runs().first { ($0["run"] as? NSNumber)?.intValue == run })
        #expect(listed["undoable"] as? Bool == true, "\(listed)")

        // Off a terminal without --yes: lab-tool is in the plan, put back as the others are.
        let asked = try await installtop(["apt", "undo", String(run), "--apt-config", lab.apt.configuration, "--history-db", lab.database],
                                         in: lab.folder)
        #expect(asked.stdout.contains("  lab-tool 2.0 → 1.0"), "\(asked.stdout)\(asked.stderr)")
        #expect(!asked.stderr.contains("leaves"), "\(asked.stderr)")

        let undo = try await lab.installtopAPT(["undo", String(run)])
        #expect(undo.status == 0, "\(undo.stdout)\(undo.stderr)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"])
        #expect(try lab.apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A failed package with no kept version: the undo says before the yes that it leaves it; apt tries its configuration again, which fails as before")
    func failedPackageNotKept() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let run = try await Self.failedUpgrade(lab)
        // As if lab-tool's 1.0 could not be kept.
        let deleted = try TestCommand.run(["/usr/bin/sqlite3", lab.database, "DELETE FROM keptVersion WHERE package = 'lab-tool'"])
        try #require(deleted.status == 0, "\(deleted.stderr)")

        let undo = try await lab.installtopAPT(["undo", String(run)])
        // apt configures a half-configured package in any transaction: lab-tool's postinst
        // fails again, and the undo fails with it, the others put back.
        #expect(undo.status == 1, "\(undo.stdout)\(undo.stderr)")
        let said = "installtop: apt undo \(run): leaves lab-tool half-configured at 2.0 (iF): no version of it was kept for this run"
        #expect(undo.stderr.hasPrefix(said), "said first, before the plan: \(undo.stderr)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "iF 2.0"])
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A failed install undone: the package dpkg has half-configured is removed")
    func failedInstallRemoved() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        try lab.apt.publish([TestPackage(name: "lab-new", postinst: "exit 1")])
        let install = try await lab.installtopAPT(["install", "lab-new"])
        #expect(install.status == 1, "\(install.stdout)\(install.stderr)")
        #expect(try lab.states()["lab-new"] == "iF 1.0")
        let run = try await lab.newestRun()
        let listed = try #require(try await lab.runs().first)
        #expect(listed["undoable"] as? Bool == true, "\(listed)")

        let undo = try await lab.installtopAPT(["undo", String(run)])
        #expect(undo.status == 0, "\(undo.stdout)\(undo.stderr)")
        let states = try lab.apt.states()
        #expect(states["lab-new"]?.isPresent != true, "\(states)")
        #expect(try lab.apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("In the machine's engine (as the board's u plans it): the job's name says what the undo leaves")
    func leavesNamedInTheEnginesJob() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let fixture = try DaemonFixture(history: true)
        defer { fixture.folder.remove() }
        let database = try #require(fixture.historyDatabase)
        let run = try await Self.failedUpgrade(lab, database: database)
        _ = try TestCommand.check(["/usr/bin/sqlite3", database, "DELETE FROM keptVersion WHERE package = 'lab-tool'"])
        // The engine records into that history, on the lab's root.
        try await fixture.start(extraArguments: ["--apt-config", lab.apt.configuration])
        let undo = try await installtop(["apt", "undo", String(run), "--yes", "--json", "--apt-config", lab.apt.configuration,
                                         "--history-db", database], in: lab.folder,
                                        environment: ["INSTALLTOP_MACHINE_SOCKET": fixture.socket], timeout: .seconds(180))
        #expect(undo.status == 1, "lab-tool's postinst fails again when apt configures it: \(undo.stdout)\(undo.stderr)")
        #expect(undo.stderr.contains("runs in the machine's engine"), "\(undo.stderr)")
        let queued = try #require(try undo.jsonEvents().first { $0.name == "job.queued" })
        #expect(queued.string("name")?.contains(" · leaves lab-tool half-configured at 2.0 (iF): no version of it was kept for this run") == true,
                "\(queued.fields)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "iF 2.0"])
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
