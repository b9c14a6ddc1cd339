import Foundation
import InstallEngine
@testable import MonitorRuntime
import Testing

@Suite("Mailbox: what waits for the monitor's loop is bounded, in order, and ends with a flood's last lines")
struct MailboxTests {
    @Test("a flood posted while the loop does not drain: every state change in order, progress coalesced, lines counted, the newest kept")
    func aFloodIsSummarisedAndTheTailKept() throws {
        let mailbox = try Mailbox(summariseAfter: 64 << 10, tailLines: 50)
        let lines = 20_000
        mailbox.post(.engine(EngineEvent(kind: .updateStarted(job: 1, index: 0, updateID: "flood"))))
        for line in 0..<lines {
            mailbox.post(.engine(EngineEvent(kind: .output(job: 1, index: 0, stream: .stdout, line: "line \(line)"))))
            mailbox.post(.engine(EngineEvent(kind: .progress(
                job: 1, index: 0, updatePercent: Double(line) / Double(lines) * 100, jobPercent: 0, message: nil))))
        }
        let result = UpdateInstallationResult(resultCode: .succeeded)
        mailbox.post(.engine(EngineEvent(kind: .updateCompleted(job: 1, index: 0, updateID: "flood", result: result))))

        let items = mailbox.drain()
        let events = items.compactMap { item -> EngineEvent? in if case .engine(let event) = item { event } else { nil } }
        #expect(items.count < 3_000, "bounded: \(items.count) items for \(lines * 2 + 2) posted")
        let outputs = events.compactMap { event -> UpdateOutput? in if case .output(let output) = event.kind { output } else { nil } }
        let counted = outputs.compactMap(\.notShown).reduce(0, +)
        #expect(counted > 0)
        #expect(outputs.filter { $0.notShown == nil }.count + counted == lines, "every line shown or counted")
        #expect(outputs.suffix(50).map(\.line) == (lines - 50..<lines).map { "line \($0)" }, "the tail ends with the flood's last lines")
        if case .updateStarted = events.first?.kind {} else { Issue.record("the start comes first: \(String(describing: events.first))") }
        if case .updateCompleted = events.last?.kind {} else { Issue.record("the completion comes last: \(String(describing: events.last))") }
        let lastProgress = events.last { if case .progress = $0.kind { true } else { false } }
        if case .progress(let progress) = lastProgress?.kind {
            #expect(progress.updatePercent == Double(lines - 1) / Double(lines) * 100, "the newest progress")
        } else {
            Issue.record("no progress")
        }
    }
}
