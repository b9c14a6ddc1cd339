import Foundation
import SQLiteStore
import InstallEngine
@testable import InstallHistory
import Testing

@Suite("Rule 19: every update of a job becomes a history entry")
final class HistoryRecorderTests {
    private let folder = TemporaryFolder()
    private let store: HistoryStore
    private let recorder: HistoryRecorder

    init() throws {
        store = try HistoryStore(path: folder.file("history.sqlite3"))
        recorder = HistoryRecorder(store: store)
    }

    private let updates = [
        Update(id: "openssl", revision: 3, title: "OpenSSL 3.0.15 security fix"),
        Update(id: "kernel", revision: 7, title: "Linux 6.1.0-27"),
        Update(id: "tzdata", title: "Time zones 2024b"),
    ]

    @Test func aJobsEventsGiveOneRowPerUpdateWithItsResult() throws {
        let job = EngineEvents.job(1, updates: updates)
        try recorder.record(EngineEvents.queued(job))
        try recorder.record(EngineEvents.started(1, at: 1))
        try recorder.record(EngineEvents.updateStarted(1, 0, "openssl", at: 1))
        try recorder.record(EngineEvents.updateCompleted(
            1, 0, "openssl",
            UpdateInstallationResult(resultCode: .succeeded, startedAt: EngineEvents.time(1), endedAt: EngineEvents.time(3.5)),
            at: 3.5))
        try recorder.record(EngineEvents.updateStarted(1, 1, "kernel", at: 4))
        try recorder.record(EngineEvents.output(1, 1, "dpkg: error processing package", at: 4.5))
        let failed = UpdateInstallationResult(
            resultCode: .failed, hResult: .installerFailure, unmappedResultCode: 100,
            reason: "exited with status 100", startedAt: EngineEvents.time(4), endedAt: EngineEvents.time(5))
        try recorder.record(EngineEvents.updateCompleted(1, 1, "kernel", failed, at: 5))
        let cancelled = UpdateInstallationResult(resultCode: .aborted, hResult: .callCancelled)
        try recorder.record(EngineEvents.updateCompleted(1, 2, "tzdata", cancelled, at: 5))
        try recorder.record(EngineEvents.completed(1, [.notStarted], at: 5))

        let rows = try store.entries()
        #expect(rows.map(\.updateID) == ["tzdata", "kernel", "openssl"])

        let openssl = try #require(rows.first { $0.updateID == "openssl" })
        #expect(openssl.operation == .install)
        #expect(openssl.resultCode == .succeeded)
        #expect(openssl.hResult == .ok)
        #expect(openssl.revision == 3)
        #expect(openssl.title == "OpenSSL 3.0.15 security fix")
        #expect(openssl.jobName == "Security updates")
        #expect(openssl.clientApplicationID == "installtop")
        #expect(openssl.startedAt == EngineEvents.time(1))
        #expect(openssl.endedAt == EngineEvents.time(3.5))
        #expect(openssl.durationMs == 2500)
        #expect(openssl.isRunning == false)
        #expect(openssl.writer == ProcessIdentity.current())

        let kernel = try #require(rows.first { $0.updateID == "kernel" })
        #expect(kernel.resultCode == .failed)
        #expect(kernel.hResult == .installerFailure)
        #expect(kernel.unmappedResultCode == 100)
        #expect(kernel.reason == "exited with status 100")
        #expect(kernel.outputTail == "dpkg: error processing package")
        #expect(kernel.durationMs == 1000)

        // Never started: one finished row, dated when it was settled, with no start or duration.
        let tzdata = try #require(rows.first { $0.updateID == "tzdata" })
        #expect(tzdata.resultCode == .aborted)
        #expect(tzdata.hResult == .callCancelled)
        #expect(tzdata.startedAt == nil)
        #expect(tzdata.endedAt == EngineEvents.time(5))
        #expect(tzdata.durationMs == nil)
        #expect(tzdata.isRunning == false)
    }

    @Test func theRowExistsMarkedRunningAsSoonAsRecordReturnsForUpdateStarted() throws {
        try recorder.record(EngineEvents.queued(EngineEvents.job(4, updates: updates)))
        try recorder.record(EngineEvents.updateStarted(4, 1, "kernel", at: 2))

        let row = try #require(try store.entries().first)
        #expect(row.updateID == "kernel")
        #expect(row.isRunning)
        #expect(row.resultCode == .inProgress)
        #expect(row.startedAt == EngineEvents.time(2))
        #expect(row.endedAt == nil)
        #expect(row.writer == ProcessIdentity.current())

        try recorder.record(EngineEvents.updateCompleted(4, 1, "kernel", UpdateInstallationResult(resultCode: .succeeded), at: 3))
        try recorder.flush()
        #expect(try store.count() == 1, "the completion settles the running row instead of adding one")
        let settled = try #require(try store.entries().first)
        #expect(settled.id == row.id)
        #expect(settled.isRunning == false)
        #expect(settled.durationMs == 1000)
    }

    @Test func datesAreStoredInUTC() throws {
        try recorder.record(EngineEvents.queued(EngineEvents.job(2, updates: updates)))
        try recorder.record(EngineEvents.updateStarted(2, 0, "openssl", at: 0.25))
        let raw = try store.pool.read { db in
            try db.fetchValue(String.self, sql: "SELECT startedAt FROM historyEntry")
        }
        #expect(raw == "2023-11-14 22:13:20.250")
    }

    @Test func theOutputTailKeepsTheLast200LinesAndCutsHugeLines() throws {
        try recorder.record(EngineEvents.queued(EngineEvents.job(3, updates: updates)))
        try recorder.record(EngineEvents.updateStarted(3, 0, "openssl", at: 0))
        for number in 1...1000 {
            try recorder.record(EngineEvents.output(3, 0, "line \(number)", at: 1))
        }
        try recorder.record(EngineEvents.output(3, 0, String(repeating: "é", count: 10_000), at: 1))
        try recorder.record(EngineEvents.updateCompleted(3, 0, "openssl", UpdateInstallationResult(resultCode: .succeeded), at: 2))
        try recorder.flush()

        let lines = try #require(try store.entries().first).outputTail.components(separatedBy: "\n")
        #expect(lines.count == 200)
        #expect(lines.first == "line 802")
        #expect(lines.dropLast().last == "line 1000")
        let huge = try #require(lines.last)
        #expect(huge.utf8.count <= HistoryOutputTail.lineByteLimit)
        #expect(huge.hasPrefix("éé") && huge.hasSuffix("…"))
    }

    @Test func operationAndClientApplicationIDAreRecorded() throws {
        let recorder = HistoryRecorder(store: store, clientApplicationID: "fleet-agent")
        try recorder.record(EngineEvents.queued(EngineEvents.job(5, name: "Rollback", operation: .uninstall, updates: updates)))
        try recorder.record(EngineEvents.updateStarted(5, 2, "tzdata", at: 0))
        try recorder.record(EngineEvents.updateCompleted(5, 2, "tzdata", UpdateInstallationResult(resultCode: .succeeded), at: 1))

        let row = try #require(try store.entries().first)
        #expect(row.operation == .uninstall)
        #expect(row.jobName == "Rollback")
        #expect(row.clientApplicationID == "fleet-agent")
        let stored = try store.pool.read { db in try db.fetchValue(Int.self, sql: "SELECT operation FROM historyEntry") }
        #expect(stored == 2)
    }

    @Test func eventsOfAnUnknownOrFinishedJobAreIgnored() throws {
        try recorder.record(EngineEvents.updateStarted(9, 0, "openssl", at: 0))
        try recorder.record(EngineEvents.queued(EngineEvents.job(6, updates: updates)))
        try recorder.record(EngineEvents.completed(6, [], at: 1))
        try recorder.record(EngineEvents.updateCompleted(6, 0, "openssl", UpdateInstallationResult(resultCode: .succeeded), at: 2))
        #expect(try store.count() == 0)
    }

    @Test func outputOfOneUpdateDoesNotLeakIntoAnother() throws {
        let other = EngineEvents.job(8, name: "Other", updates: updates)
        try recorder.record(EngineEvents.queued(EngineEvents.job(7, updates: updates)))
        try recorder.record(EngineEvents.queued(other))
        try recorder.record(EngineEvents.updateStarted(7, 0, "openssl", at: 0))
        try recorder.record(EngineEvents.updateStarted(8, 0, "openssl", at: 0))
        try recorder.record(EngineEvents.output(7, 0, "seven", at: 1))
        try recorder.record(EngineEvents.output(8, 0, "eight", at: 1))
        try recorder.record(EngineEvents.updateCompleted(7, 0, "openssl", UpdateInstallationResult(resultCode: .succeeded), at: 2))
        try recorder.record(EngineEvents.updateCompleted(8, 0, "openssl", UpdateInstallationResult(resultCode: .succeeded), at: 2))
        try recorder.flush()

        #expect(try store.entries(jobName: "Security updates").map(\.outputTail) == ["seven"])
        #expect(try store.entries(jobName: "Other").map(\.outputTail) == ["eight"])
    }
}
