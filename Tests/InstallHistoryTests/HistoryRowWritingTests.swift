import Foundation
import InstallEngine
@testable import InstallHistory
import SQLiteStore
import Testing

@Suite("The recorder's statements write rows as GRDB wrote them, and read them back")
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

    @Test func insertedRowsHoldGRDBsValuesAndReadBack() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let ids = try Self.entries.map { entry in try store.insert(entry).id }
        // GRDB's forms: dates as UTC text to the millisecond (rounded), booleans as 1 and 0,
        // HRESULTs as unsigned numbers, NULL for what is missing.
        #expect(try rawRow(ids[0], store) == [
            "operation=1", "resultCode=1", "hResult=0", "unmappedResultCode=0", "reason=NULL", "startedAt='2023-11-14 22:13:20.124'",
            "endedAt=NULL", "updateID='openssl'", "revision=3", "title='OpenSSL \u{202E}fix'", "jobName='patch'",
            "clientApplicationID='installtop'", "durationMs=NULL", "outputTail=''", "isRunning=1", "writerPID=42", "writerStartTime=123456",
            "writerBootID='boot'", "packageAction=NULL", "oldVersion=NULL", "newVersion=NULL", "observedBy=NULL", "jobRun=NULL",
        ])
        #expect(try rawRow(ids[1], store).contains("hResult=\(HResult.installerFailure.rawValue)"))
        #expect(try rawRow(ids[1], store).contains("endedAt='2023-11-14 22:13:23.000'"))
        let read = try store.pool.read { try HistoryStore.entries($0, where: "1") }
        #expect(read.map(\.id) == ids)
        #expect(Array(read.dropFirst()) == Array(zip(Self.entries.dropFirst(), ids.dropFirst()).map { entry, id in
            var entry = entry
            entry.id = id
            // 1_700_000_002.9996 is kept to the millisecond, rounded.
            if entry.updateID == "lab-app" { entry.endedAt = Date(timeIntervalSince1970: 1_700_000_003) }
            return entry
        }))
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
        var rows = try store.pool.read { try HistoryStore.entries($0, where: "1") }
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
        let rows = try store.pool.read { try HistoryStore.entries($0, where: "1") }
        #expect(rows.map(\.updateID) == ["openssl", "later", "openssl"])
        #expect(rows[0].isRunning == false && rows[2].isRunning)
    }

    private func rawRow(_ id: Int64?, _ store: HistoryStore) throws -> [String] {
        try store.pool.read { db in
            guard let row = try db.fetchOne(sql: "SELECT * FROM historyEntry WHERE id = ?", arguments: [id]) else { return [] }
            return zip(row.columnNames, row.values).filter { $0.0 != "id" }.map { "\($0.0)=\($0.1)" }
        }
    }
}
