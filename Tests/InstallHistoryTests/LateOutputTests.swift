import Foundation
import InstallEngine
@testable import InstallHistory
import Testing

/// Output a driver reports about an update after its result (apt retries a failed configure
/// at the end of its transaction; a repair speaks on the last package apt finished) is that
/// update's: its history row's output tail gets it once the job completes, within the tail's
/// bounds.
@Suite("History: output after an update's result")
final class LateOutputTests {
    private let folder = TemporaryFolder()
    private let store: HistoryStore

    init() throws {
        store = try HistoryStore(path: folder.file("history.sqlite3"))
    }

    private let updates = [Update(id: "lab-flaky", title: "lab-flaky 1.0"), Update(id: "lab-after", title: "lab-after 1.0")]
    private let failed = UpdateInstallationResult(
        resultCode: .failed, hResult: .installerFailure, reason: "installed lab-flaky package post-installation script subprocess returned error exit status 1",
        startedAt: EngineEvents.time(1), endedAt: EngineEvents.time(2))

    /// A job whose first update fails, the second runs, then the first's retry speaks.
    private func record(into recorder: HistoryRecorder) throws {
        try recorder.record(EngineEvents.queued(EngineEvents.job(1, updates: updates)))
        try recorder.record(EngineEvents.started(1, at: 1))
        try recorder.record(EngineEvents.updateStarted(1, 0, "lab-flaky", at: 1))
        try recorder.record(EngineEvents.output(1, 0, "Setting up lab-flaky (1.0) ...", at: 1.5))
        try recorder.record(EngineEvents.output(1, 0, "lab-flaky: cannot start lab-flaky.service (first attempt)", at: 1.6))
        try recorder.record(EngineEvents.updateCompleted(1, 0, "lab-flaky", failed, at: 2))
        try recorder.record(EngineEvents.updateStarted(1, 1, "lab-after", at: 2))
        try recorder.record(EngineEvents.output(1, 1, "Setting up lab-after (1.0) ...", at: 2.5))
        try recorder.record(EngineEvents.updateCompleted(
            1, 1, "lab-after", UpdateInstallationResult(resultCode: .succeeded, startedAt: EngineEvents.time(2), endedAt: EngineEvents.time(3)), at: 3))
        // apt's final `dpkg --configure --pending` tries lab-flaky again.
        try recorder.record(EngineEvents.output(1, 0, "Setting up lab-flaky (1.0) ...", at: 3.5))
        try recorder.record(EngineEvents.output(1, 0, "lab-flaky: started on the second attempt", at: 3.6))
        try recorder.record(EngineEvents.completed(1, [failed, .notStarted], at: 4))
    }

    @Test("The row's tail has the lines after its result, after those before it; the other row's tail is its own", arguments: [
        Duration.zero, .milliseconds(5), .seconds(60),
    ])
    func tailKeepsLinesAfterTheVerdict(settleDelay: Duration) throws {
        try record(into: HistoryRecorder(store: store, settleDelay: settleDelay))
        let rows = try store.entries()
        let flaky = try #require(rows.first { $0.updateID == "lab-flaky" })
        #expect(flaky.outputTail == """
            Setting up lab-flaky (1.0) ...
            lab-flaky: cannot start lab-flaky.service (first attempt)
            Setting up lab-flaky (1.0) ...
            lab-flaky: started on the second attempt
            """)
        #expect(flaky.resultCode == .failed && flaky.reason == failed.reason, "the late lines change nothing else")
        let after = try #require(rows.first { $0.updateID == "lab-after" })
        #expect(after.outputTail == "Setting up lab-after (1.0) ...")
        #expect(rows.count == 2)
    }

    @Test("Late lines keep the tail's bound: the last 200 lines")
    func bounded() throws {
        let recorder = HistoryRecorder(store: store)
        try recorder.record(EngineEvents.queued(EngineEvents.job(1, updates: [updates[0]])))
        try recorder.record(EngineEvents.updateStarted(1, 0, "lab-flaky", at: 1))
        for line in 0..<150 { try recorder.record(EngineEvents.output(1, 0, "before \(line)", at: 1.5)) }
        try recorder.record(EngineEvents.updateCompleted(1, 0, "lab-flaky", failed, at: 2))
        for line in 0..<150 { try recorder.record(EngineEvents.output(1, 0, "after \(line)", at: 2.5)) }
        try recorder.record(EngineEvents.completed(1, [failed], at: 3))
        let lines = try #require(try store.entries().first).outputTail.split(separator: "\n")
        #expect(lines.count == 200)
        #expect(lines.first == "before 100" && lines.last == "after 149")
    }
}
