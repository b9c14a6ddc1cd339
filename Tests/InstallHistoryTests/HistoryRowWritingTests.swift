import Foundation
import GRDB
import InstallEngine
@testable import InstallHistory
import Testing

@Suite("The recorder's statements write the rows GRDB's record methods write")
final class HistoryRowWritingTests {
    private let folder = TemporaryFolder()

    private static let entries = [
        HistoryEntry(
            operation: .install, resultCode: .inProgress, startedAt: Date(timeIntervalSince1970: 1_700_000_000.1236),
            endedAt: nil, updateID: "openssl", revision: 3, title: "OpenSSL \u{202E}fix", jobName: "patch",
            writer: ProcessIdentity(pid: 42, startTime: 123_456, bootID: "boot"), isRunning: true),
        HistoryEntry(
            operation: .uninstall, resultCode: .failed, hResult: .installerFailure, unmappedResultCode: 137,
            reason: "killed (by signal 9)", startedAt: Date(timeIntervalSince1970: 1_700_000_001),
            endedAt: Date(timeIntervalSince1970: 1_700_000_002.9996), updateID: "lab-app", title: "lab-app",
            packageAction: .remove, oldVersion: "1.0", newVersion: nil, jobName: "apt remove",
            clientApplicationID: "ops", durationMs: 2000, outputTail: "line 1\nline 2"),
        HistoryEntry(
            operation: .install, resultCode: .aborted, hResult: .callCancelled, startedAt: nil,
            endedAt: Date(timeIntervalSince1970: 1_800_000_000), updateID: "later", title: "Later", jobName: "j"),
    ]

    @Test func insertedRowsAreTheSame() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        for entry in Self.entries {
            let ours = try store.insert(entry)
            let theirs = try store.pool.write { db in
                var copy = entry
                try copy.insert(db)
                return copy
            }
            #expect(try rawRow(ours.id, store) == rawRow(theirs.id, store))
            #expect(try store.pool.read { try HistoryEntry.fetchOne($0, key: ours.id) }?.updateID == entry.updateID)
        }
    }

    @Test func aSettledRowOverwritesItsRunningRowOrIsInsertedWhenItIsMissing() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        var running = try store.insert(Self.entries[0])
        running.isRunning = false
        running.resultCode = .succeeded
        running.endedAt = Date(timeIntervalSince1970: 1_700_000_005)
        running.durationMs = 4877
        try store.save(running)
        var missing = Self.entries[1]
        missing.id = 999
        try store.save(missing)
        var rows = try store.pool.read { try HistoryEntry.order(Column("id")).fetchAll($0) }
        #expect(rows.count == 2)
        // Dates keep milliseconds: the running row's start (…000.1236) reads back as …000.124.
        running.startedAt = Date(timeIntervalSince1970: 1_700_000_000.124)
        #expect(rows[0].id == running.id && abs(rows[0].startedAt!.timeIntervalSince(running.startedAt!)) < 0.000_001)
        rows[0].startedAt = running.startedAt
        #expect(rows[0] == running)
        #expect(rows[1].updateID == "lab-app" && rows[1].id != nil)
    }

    @Test func oneTransactionSettlesAndInsertsInOrder() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        var first = try store.insert(Self.entries[0])
        first.isRunning = false
        first.resultCode = .succeeded
        let ids = try store.write(HistoryStore.RowWrites(settled: [first], inserted: [Self.entries[2], Self.entries[0]]))
        #expect(ids.count == 2 && ids[0] < ids[1] && ids[0] > first.id!)
        let rows = try store.pool.read { try HistoryEntry.order(Column("id")).fetchAll($0) }
        #expect(rows.map(\.updateID) == ["openssl", "later", "openssl"])
        #expect(rows[0].isRunning == false && rows[2].isRunning)
    }

    private func rawRow(_ id: Int64?, _ store: HistoryStore) throws -> [String] {
        try store.pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM historyEntry WHERE id = ?", arguments: [id]) else { return [] }
            return row.columnNames.filter { $0 != "id" }.map { "\($0)=\(row[$0] as DatabaseValue)" }
        }
    }
}
