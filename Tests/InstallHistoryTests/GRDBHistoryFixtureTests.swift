import Foundation
import InstallEngine
@testable import InstallHistory
import SQLiteStore
import Testing

/// A history written by installtop when it still used GRDB (Fixtures/history-v12-grdb.sql:
/// `sqlite3 .dump` of a file GRDB's code wrote and migrated to v12) opens with SQLiteStore, as
/// it is and as v11 left it, and migrates with every row intact.
@Suite("A history GRDB wrote opens, migrates and reads as before")
final class GRDBHistoryFixtureTests {
    private let folder = TemporaryFolder()

    private static let dump = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/history-v12-grdb.sql"

    /// A new file made from the dump, with `change` run on it before any store opens it.
    private func restored(_ change: String = "") throws -> String {
        let path = folder.file("history.sqlite3")
        let sql = try String(contentsOfFile: Self.dump, encoding: .utf8)
        let connection = try SQLiteConnection(path: path)
        try connection.execute(sql: sql)
        try connection.execute(sql: change)
        return path
    }

    @Test("As GRDB left it at v12: nothing to migrate, every row reads back")
    func atTwelve() throws {
        let store = try HistoryStore(path: try restored())
        try expectRowsIntact(store)
        #expect(try store.confirmWindow(of: 1)?.restartedServices == ["ssh.service"])
        #expect(try store.pool.read { try $0.fetchValues(String.self, sql: "SELECT identifier FROM grdb_migrations") }.count
            == HistorySchema.Migration.allCases.count)
    }

    @Test("As GRDB left it at v11: v12 is applied, recorded in grdb_migrations, and the rows are kept")
    func atEleven() throws {
        let path = try restored("""
            ALTER TABLE confirmWindow DROP COLUMN restartedServices;
            DELETE FROM grdb_migrations WHERE identifier = '\(HistorySchema.Migration.addRestartedServices.rawValue)';
            """)
        let before = try SQLiteConnection(path: path)
        // v1 to v11: the fixture was written at v12, before the migrations after it.
        let upToEleven = HistorySchema.Migration.allCases.prefix { $0 != .addRestartedServices }
        #expect(try HistorySchema.migrator.appliedIdentifiers(before) == upToEleven.map(\.rawValue))

        let store = try HistoryStore(path: path)
        let applied = try store.pool.read { try HistorySchema.migrator.appliedIdentifiers($0) }
        #expect(applied == HistorySchema.Migration.allCases.map(\.rawValue))
        try expectRowsIntact(store)
        #expect(try store.confirmWindow(of: 1)?.restartedServices == nil)

        // The migrated file takes what v12 added.
        let run = try store.reserveJobRun(kind: "apt", name: "apt upgrade", operation: .install, startedAt: EngineEvents.time(500))
        try store.armConfirmWindow(ConfirmWindow(run: run, armedAt: EngineEvents.time(500), deadline: EngineEvents.time(800),
                                                 restartedServices: ["cron.service"]),
                                   baseline: [], checkedAfter: [])
        #expect(try store.confirmWindow(of: run)?.restartedServices == ["cron.service"])
        #expect(try HistoryStore(path: path).entries().count == 3)
    }

    /// What the GRDB-era code wrote (`FixtureWriter` of commit d478247's tree, run once).
    private func expectRowsIntact(_ store: HistoryStore) throws {
        let rows = try store.entries()
        #expect(rows.map(\.updateID) == ["script", "lab-b", "lab-a"])
        #expect(rows.map(\.id) == [3, 2, 1])
        let labA = rows[2]
        #expect(labA == HistoryEntry(
            id: 1, operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0), endedAt: EngineEvents.time(1.5),
            updateID: "lab-a", title: "lab-a 2.0", packageAction: .upgrade, oldVersion: "1.0", newVersion: "2.0", jobName: "apt upgrade",
            durationMs: 1500, outputTail: "Unpacking lab-a\nSetting up lab-a (2.0)",
            writer: ProcessIdentity(pid: 4242, startTime: 987_654, bootID: "fixture-boot"), jobRun: 1))
        let labB = rows[1]
        #expect(labB.resultCode == .failed && labB.hResult == .installerFailure && labB.unmappedResultCode == 1)
        #expect(labB.reason == "exited with status 1" && labB.endedAt == EngineEvents.time(3.25) && labB.outputTail == "it's broken")
        #expect(labB.packageAction == .install && labB.oldVersion == nil && labB.newVersion == "2.0")
        let script = rows[0]
        #expect(script.operation == .uninstall && script.resultCode == .aborted && script.hResult == .callCancelled)
        #expect(script.startedAt == nil && script.endedAt == EngineEvents.time(10) && script.jobRun == nil && script.writer == nil)
        #expect(try store.count(updateID: "lab-a") == 1 && store.medianDuration(updateID: "lab-a") == .milliseconds(1500))

        let run = try #require(try store.jobRuns().first)
        #expect(run.id == 1 && run.kind == "apt" && run.name == "apt upgrade" && run.resultCode == .succeededWithErrors)
        #expect(run.startedAt == EngineEvents.time(0) && run.endedAt == EngineEvents.time(4))
        #expect(run.packages.map(\.name) == ["lab-a", "lab-b"])
        #expect(run.kept == [KeptVersionRecord(
            id: 1, jobRun: 1, package: "lab-a", version: "1.0", architecture: "all", file: "/kept/lab-a_1.0_all.deb", sizeBytes: 1234,
            source: "/var/cache/apt/archives/lab-a_1.0_all.deb", conffiles: ["/etc/lab-a.conf": "d41d8cd98f00b204e9800998ecf8427e"],
            automatic: false)])
        let window = try #require(run.confirmWindow)
        #expect(window.state == .armed && window.armedAt == EngineEvents.time(4) && window.deadline == EngineEvents.time(304))
        #expect(window.regressions == [HealthRegression(check: "sshd -t", before: "passed", after: "failed")])
        #expect(window.aptConfig == "/lab/apt.conf" && window.tool == "apt" && window.reverter == nil)
        #expect(try store.openConfirmWindows().map(\.run) == [1])
    }
}
