import Foundation
import InstallEngine
import Testing

@Suite("SubscriberOutbox: state changes in order, progress coalesced, output summarised when behind")
struct SubscriberOutboxTests {
    private typealias Outbox = SubscriberOutbox<EngineEvent>
    /// One time for every event, so that events built alike are equal.
    static let time = Date(timeIntervalSince1970: 1_700_000_000)

    private static func progress(_ job: Int, _ index: Int, _ percent: Double) -> EngineEvent {
        EngineEvent(time: Self.time, kind: .progress(job: job, index: index, updatePercent: percent, jobPercent: percent / 2, message: nil))
    }

    static func output(_ job: Int, _ index: Int, _ line: String = String(repeating: "x", count: 90)) -> EngineEvent {
        EngineEvent(time: Self.time, kind: .output(job: job, index: index, stream: .stdout, line: line))
    }

    private static func completed(_ job: Int, _ index: Int) -> EngineEvent {
        EngineEvent(time: Self.time, kind: .updateCompleted(job: job, index: index, updateID: "u\(index)", result: UpdateInstallationResult(resultCode: .succeeded)))
    }

    private static func isStateChange(_ event: EngineEvent) -> Bool {
        switch event.kind {
        case .progress, .output: false
        default: true
        }
    }

    /// Pushes with each event's size 100 bytes, as the tests' limits assume.
    private static func push(_ events: [EngineEvent], into outbox: inout Outbox) {
        for event in events { outbox.push(event, payload: event, size: 100) }
    }

    @Test("a newer progress replaces the waiting one of its update; a line kept or a state change of the job stops that")
    func progressIsCoalescedWithoutCrossingOtherEvents() {
        var outbox = Outbox(limit: 1 << 20)
        Self.push([Self.progress(1, 0, 10), Self.progress(1, 1, 5), Self.progress(1, 0, 20), Self.progress(1, 0, 30)], into: &outbox)
        #expect(outbox.take() == [.item(Self.progress(1, 0, 30)), .item(Self.progress(1, 1, 5))], "newest wins, in the first one's place")

        Self.push([Self.progress(1, 0, 40), Self.output(1, 0, "a"), Self.progress(1, 0, 50), Self.progress(1, 0, 60)], into: &outbox)
        #expect(outbox.take() == [.item(Self.progress(1, 0, 40)), .item(Self.output(1, 0, "a")), .item(Self.progress(1, 0, 60))])

        // Update 1's completion closes update 0's waiting progress too: both are the job's.
        Self.push([Self.progress(1, 0, 70), Self.completed(1, 1), Self.progress(1, 0, 80), Self.progress(2, 0, 1)], into: &outbox)
        Self.push([Self.progress(1, 0, 90)], into: &outbox)
        #expect(outbox.take() == [
            .item(Self.progress(1, 0, 70)), .item(Self.completed(1, 1)), .item(Self.progress(1, 0, 90)), .item(Self.progress(2, 0, 1)),
        ])
        #expect(outbox.isEmpty && outbox.byteCount == 0)
    }

    @Test("past the limit an update's lines become one exact count in the place of the first, until half the limit is reached again")
    func linesAreSummarisedExactly() {
        var outbox = Outbox(limit: 1_000)
        for _ in 0..<10 { Self.push([Self.output(1, 0)], into: &outbox) }
        #expect(!outbox.isSummarising, "exactly the limit waits")
        for line in 0..<15 { Self.push([Self.output(1, line % 2)], into: &outbox) }
        #expect(outbox.isSummarising && outbox.linesNotShown == 15)
        Self.push([Self.completed(1, 1)], into: &outbox)
        for _ in 0..<4 { Self.push([Self.output(1, 0)], into: &outbox) }
        let delivered = outbox.take()
        #expect(delivered == Array(repeating: .item(Self.output(1, 0)), count: 10) + [
            .linesNotShown(UpdateKey(job: 1, index: 0), count: 8), .linesNotShown(UpdateKey(job: 1, index: 1), count: 7),
            .item(Self.completed(1, 1)),
            // The completion closed the job's counts: later lines start a new one.
            .linesNotShown(UpdateKey(job: 1, index: 0), count: 4),
        ])
        #expect(outbox.linesNotShown == 19)
        #expect(!outbox.isSummarising, "caught up: lines are kept again")
        Self.push([Self.output(1, 0, "shown")], into: &outbox)
        #expect(outbox.take() == [.item(Self.output(1, 0, "shown"))])
    }

    @Test("summarising lasts until what waits falls to half the limit, taken a part at a time")
    func summarisingEndsAtHalfTheLimit() {
        var outbox = Outbox(limit: 1_000)
        for _ in 0..<12 { Self.push([Self.output(1, 0)], into: &outbox) }
        #expect(outbox.take(maxBytes: 300).count == 3)
        #expect(outbox.isSummarising, "700 + a count still wait")
        Self.push([Self.output(1, 0)], into: &outbox)
        #expect(outbox.take(maxBytes: 400).count == 4)
        #expect(!outbox.isSummarising, "300 + a count wait: at most half")
        Self.push([Self.output(1, 0, "kept")], into: &outbox)
        let rest = outbox.take()
        #expect(rest.last == .item(Self.output(1, 0, "kept")))
        #expect(rest.contains(.linesNotShown(UpdateKey(job: 1, index: 0), count: 3)))
    }

    @Test("under a flood of progress and output every state change arrives in order, each update's last progress before its end, and every line is shown or counted")
    func stateChangesKeepTheirOrderUnderAFlood() {
        var outbox = Outbox(limit: 20_000)
        var stateChanges: [EngineEvent] = []
        var delivered: [OutboxDelivery<EngineEvent>] = []
        let updates = 6
        let linesPerUpdate = 5_000
        func push(_ event: EngineEvent) {
            if Self.isStateChange(event) { stateChanges.append(event) }
            outbox.push(event, payload: event, size: 100)
        }
        push(EngineEvent(time: Self.time, kind: .jobStarted(job: 1)))
        for index in 0..<updates {
            push(EngineEvent(time: Self.time, kind: .updateStarted(job: 1, index: index, updateID: "u\(index)")))
            for line in 0..<linesPerUpdate {
                push(Self.progress(1, index, Double(line) / Double(linesPerUpdate) * 100))
                push(Self.output(1, index, "\(line)"))
                // The consumer takes a little now and then: it reads, slowly.
                if line % 1_000 == 999 { delivered += outbox.take(maxBytes: 2_000) }
            }
            push(Self.progress(1, index, 100))
            push(Self.completed(1, index))
        }
        push(EngineEvent(time: Self.time, kind: .jobCleanedUp(job: 1)))
        delivered += outbox.take()

        let events = delivered.compactMap { delivery -> EngineEvent? in
            if case .item(let event) = delivery { event } else { nil }
        }
        #expect(events.filter(Self.isStateChange) == stateChanges)
        let shown = events.count { if case .output = $0.kind { true } else { false } }
        let counted = delivered.reduce(0) { sum, delivery in
            if case .linesNotShown(_, let count) = delivery { sum + count } else { sum }
        }
        #expect(counted > 0, "the consumer fell behind")
        #expect(shown + counted == updates * linesPerUpdate)
        #expect(counted == outbox.linesNotShown)
        for index in 0..<updates {
            let ofUpdate = events.filter { event in
                switch event.kind {
                case .progress(let progress): progress.index == index
                case .updateCompleted(let completion): completion.index == index
                default: false
                }
            }
            #expect(ofUpdate.suffix(2) == [Self.progress(1, index, 100), Self.completed(1, index)], "update \(index)")
        }
    }

    @Test("a million output lines to a consumer that never takes: what waits stays bounded and every line is counted")
    func aMillionLinesStayBounded() {
        let limit = 64 << 10
        var outbox = Outbox(limit: limit)
        var largest = 0
        let line = Self.output(1, 0, String(repeating: "y", count: 200))
        for number in 0..<1_000_000 {
            outbox.push(line, payload: line, size: 230)
            if number % 3 == 0 { Self.push([Self.progress(1, 0, Double(number % 100))], into: &outbox) }
            largest = max(largest, outbox.byteCount)
        }
        #expect(largest <= limit + 230 + Outbox.summaryCost, "largest \(largest)")
        #expect(outbox.count <= limit / 100 + 3, "\(outbox.count) items, none under 100 bytes")
        let delivered = outbox.take()
        let shown = delivered.count { $0 == .item(line) }
        let counted = delivered.reduce(0) { sum, delivery in
            if case .linesNotShown(_, let count) = delivery { sum + count } else { sum }
        }
        #expect(shown + counted == 1_000_000)
    }

    @Test("stalled only once items waited the whole patience with nothing taken")
    func stalledAfterPatienceWithNothingTaken() {
        var outbox = Outbox(limit: 1_000)
        let start = ContinuousClock.now
        func stalled(after seconds: Int) -> Bool {
            outbox.stalled(now: start + .seconds(seconds), patience: .seconds(120))
        }
        #expect(!stalled(after: 0), "nothing waits")
        Self.push([Self.output(1, 0)], into: &outbox)
        #expect(!stalled(after: 1), "the wait starts here")
        #expect(!stalled(after: 120))
        #expect(stalled(after: 121))
        // Taking part of it restarts the wait.
        Self.push([Self.output(1, 0)], into: &outbox)
        _ = outbox.take(maxBytes: 1)
        #expect(!stalled(after: 122))
        #expect(!stalled(after: 241))
        #expect(stalled(after: 242))
        _ = outbox.take()
        #expect(!stalled(after: 1_000), "nothing waits")
    }
}

extension SubscriberOutboxTests {
    @Test("while summarising, the newest lines of an update follow its count")
    func theNewestLinesFollowTheCount() {
        var outbox = SubscriberOutbox<EngineEvent>(limit: 1_000, keepsNewest: 2)
        for _ in 0..<10 { outbox.push(Self.output(1, 0), payload: Self.output(1, 0), size: 100) }
        for line in ["a", "b", "c", "d", "e"] { outbox.push(Self.output(1, 0, line), payload: Self.output(1, 0, line), size: 100) }
        #expect(outbox.linesNotShown == 3)
        let delivered = outbox.take()
        #expect(delivered.suffix(3) == [
            .linesNotShown(UpdateKey(job: 1, index: 0), count: 3), .item(Self.output(1, 0, "d")), .item(Self.output(1, 0, "e")),
        ])
        #expect(delivered.count == 13 && outbox.byteCount == 0)
    }
}
