import Foundation
import SQLiteStore
import InstallEngine
@testable import InstallHistory
import Testing

@Suite("Schema migrations keep what older versions recorded")
final class HistorySchemaTests {
    private let folder = TemporaryFolder()

    @Test func aDatabaseOfTheFirstSchemaMigratesAndKeepsItsRows() throws {
        let path = folder.file("old.sqlite3")
        do {
            let old = try SQLitePool(path: path, busyTimeout: .seconds(5))
            try HistorySchema.migrator.migrate(old, upTo: HistorySchema.Migration.createHistoryEntry.rawValue)
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO historyEntry (operation, resultCode, hResult, unmappedResultCode, reason, startedAt,
                        endedAt, updateID, revision, title, jobName, clientApplicationID, durationMs, outputTail, isRunning)
                    VALUES (1, 4, 2149851147, 2, 'exited with status 2', '2023-11-14 22:13:20.000',
                        '2023-11-14 22:13:21.500', 'openssl', 3, 'OpenSSL', 'Security', 'installtop', 1500, 'boom', 0),
                           (2, 1, 0, 0, NULL, '2023-11-14 22:14:00.000',
                        NULL, 'kernel', 1, 'Kernel', 'Rollback', 'installtop', NULL, '', 1)
                    """)
            }
        }

        let store = try HistoryStore(path: path)
        let applied = try store.pool.read { db in try HistorySchema.migrator.appliedIdentifiers(db) }
        #expect(applied == HistorySchema.Migration.allCases.map(\.rawValue))

        let rows = try store.entries()
        #expect(rows.count == 2)
        let openssl = try #require(rows.first { $0.updateID == "openssl" })
        #expect(openssl.resultCode == .failed)
        #expect(openssl.hResult == .installerFailure)
        #expect(openssl.unmappedResultCode == 2)
        #expect(openssl.reason == "exited with status 2")
        #expect(openssl.startedAt == EngineEvents.time(0))
        #expect(openssl.durationMs == 1500)
        #expect(openssl.outputTail == "boom")
        #expect(openssl.writer == nil)

        // A running row of the first schema has no recorded writer: it cannot be alive.
        let recovered = try store.recoverInterruptedEntries(now: EngineEvents.time(100))
        #expect(recovered.map(\.updateID) == ["kernel"])
        #expect(try store.entries(updateID: "kernel").first?.operation == .uninstall)
        #expect(try store.entries(updateID: "openssl").first == openssl)
    }

    @Test func reopeningAnUpToDateDatabaseChangesNothing() throws {
        let path = folder.file("history.sqlite3")
        let first = try HistoryStore(path: path)
        let row = try first.insert(HistoryEntry(
            operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0), endedAt: EngineEvents.time(1),
            updateID: "a", title: "A", jobName: "j", durationMs: 1000))
        let second = try HistoryStore(path: path)
        #expect(try second.entries() == [row])
    }
}
