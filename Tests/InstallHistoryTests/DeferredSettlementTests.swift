import Foundation
import InstallEngine
@testable import InstallHistory
import Testing

@Suite("An ended update's row is written with the next start, soon after, or at the job's end")
final class DeferredSettlementTests {
    private let folder = TemporaryFolder()
    private let store: HistoryStore

    init() throws {
        store = try HistoryStore(path: folder.file("history.sqlite3"))
    }

    private let updates = [Update(id: "first", title: "First"), Update(id: "second", title: "Second")]
    private let success = UpdateInstallationResult(resultCode: .succeeded)

    private func rows() throws -> [String: HistoryEntry] {
        Dictionary(uniqueKeysWithValues: try store.entries().map { ($0.updateID, $0) })
    }

    @Test func theNextStartWritesTheRowOfTheUpdateThatEnded() throws {
        let recorder = HistoryRecorder(store: store, settleDelay: .seconds(3600))
        try recorder.record(EngineEvents.queued(EngineEvents.job(1, updates: updates)))
        try recorder.record(EngineEvents.updateStarted(1, 0, "first", at: 0))
        try recorder.record(EngineEvents.updateCompleted(1, 0, "first", success, at: 1))
        #expect(try rows()["first"]?.isRunning == true, "not written yet: it waits for the next start")

        try recorder.record(EngineEvents.updateStarted(1, 1, "second", at: 1))
        let written = try rows()
        #expect(written["first"]?.isRunning == false)
        #expect(written["first"]?.resultCode == .succeeded)
        #expect(written["first"]?.durationMs == 1000)
        #expect(written["second"]?.isRunning == true)
        #expect(try store.count() == 2)
    }

    @Test func theJobsCompletionWritesWhatIsPending() throws {
        let recorder = HistoryRecorder(store: store, settleDelay: .seconds(3600))
        try recorder.record(EngineEvents.queued(EngineEvents.job(2, updates: updates)))
        try recorder.record(EngineEvents.updateStarted(2, 0, "first", at: 0))
        try recorder.record(EngineEvents.updateCompleted(2, 0, "first", success, at: 1))
        try recorder.record(EngineEvents.updateCompleted(2, 1, "second", UpdateInstallationResult(resultCode: .aborted), at: 1))
        #expect(try store.count() == 1)

        try recorder.record(EngineEvents.completed(2, [], at: 1))
        let written = try rows()
        #expect(written["first"]?.resultCode == .succeeded && written["first"]?.isRunning == false)
        #expect(written["second"]?.resultCode == .aborted && written["second"]?.startedAt == nil)
    }

    @Test func withoutANextStartTheRowIsWrittenAfterTheSettleDelay() async throws {
        let recorder = HistoryRecorder(store: store, settleDelay: .milliseconds(5))
        try recorder.record(EngineEvents.queued(EngineEvents.job(3, updates: updates)))
        try recorder.record(EngineEvents.updateStarted(3, 0, "first", at: 0))
        try recorder.record(EngineEvents.updateCompleted(3, 0, "first", success, at: 1))
        let deadline = ContinuousClock.now + .seconds(10)
        while try rows()["first"]?.isRunning != false, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(try rows()["first"]?.resultCode == .succeeded)
    }

    @Test func aZeroDelayWritesEveryEndAtOnce() throws {
        let recorder = HistoryRecorder(store: store, settleDelay: .zero)
        try recorder.record(EngineEvents.queued(EngineEvents.job(4, updates: updates)))
        try recorder.record(EngineEvents.updateStarted(4, 0, "first", at: 0))
        try recorder.record(EngineEvents.updateCompleted(4, 0, "first", success, at: 1))
        #expect(try rows()["first"]?.isRunning == false)
    }
}
