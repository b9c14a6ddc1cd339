import Foundation
@testable import InstallEngine
import Synchronization
import TestProcessSupport
import Testing

@Suite("Serial queues: a producer runs an idle queue's items itself, for one turn or until empty")
struct SerialWorkQueueRunHereTests {
    @Test("One turn runs the items queued before it on the calling thread; what they queue goes to the engine's pool, in order")
    func oneTurnHandsTheRestToThePool() async {
        let queue = SerialWorkQueue()
        let ran = LockedValue<[(item: Int, thread: String)]>([])
        let record: @Sendable (Int) -> Void = { item in
            let thread = ThreadNames.current
            ran.update { $0.append((item, thread)) }
        }
        let here = ThreadNames.current
        var open: SerialWorkBatch<Int>?
        let runsHere = queue.enqueueToRunHere([1, 2], joining: &open) { batch in
            for item in batch { record(item) }
            // Queued during the turn: not this turn's.
            queue.enqueue { record(3) }
        }
        #expect(runsHere)
        // Queued before the turn starts: it joins the batch that runs here (with its closure).
        #expect(!queue.enqueueToRunHere([4], joining: &open) { _ in })
        queue.runHere(untilEmpty: false)
        // The turn is over; the pool may already be running item 3.
        let turn = ran.value.prefix(3)
        #expect(turn.map(\.item) == [1, 2, 4], "the turn ran \(turn)")
        #expect(turn.allSatisfy { $0.thread == here }, "\(turn) on \(here)")
        #expect(await eventually { ran.value.count == 4 })
        #expect(ran.value.map(\.item) == [1, 2, 4, 3])
        #expect(ran.value.last?.thread.hasPrefix("installtop-eng") == true, "\(ran.value)")
    }

    @Test("Until empty, the calling thread also runs what the items queue; a queue already running only appends")
    func untilEmptyRunsEverything() {
        let queue = SerialWorkQueue()
        let ran = LockedValue<[Int]>([])
        var open: SerialWorkBatch<Int>?
        let runsHere = queue.enqueueToRunHere([1], joining: &open) { batch in
            ran.update { $0.append(contentsOf: batch) }
            var inner: SerialWorkBatch<Int>?
            // The queue is running: this only appends, and runs after this item, here.
            let alsoHere = queue.enqueueToRunHere([2], joining: &inner) { items in ran.update { $0.append(contentsOf: items) } }
            #expect(!alsoHere)
        }
        #expect(runsHere)
        queue.runHere()
        #expect(ran.value == [1, 2])
    }
}
