import Foundation
@testable import InstallEngine
import Synchronization
import Testing

@Suite("BlockingPool: blocking work on a bounded number of threads")
struct BlockingPoolTests {
    /// Work that blocks until the test opens the gate, counting how many run at once.
    private final class GatedWork: Sendable {
        private let open = Atomic<Bool>(false)
        private let running = Atomic<Int>(0)
        let started = Atomic<Int>(0)
        let mostAtOnce = Atomic<Int>(0)

        func run() {
            let now = running.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
            _ = mostAtOnce.max(now, ordering: .sequentiallyConsistent)
            started.add(1, ordering: .sequentiallyConsistent)
            // Blocks as a database or host would; bounded, so a broken test ends.
            let deadline = ContinuousClock.now + .seconds(120)
            while !open.load(ordering: .sequentiallyConsistent), ContinuousClock.now < deadline { usleep(1_000) }
            running.subtract(1, ordering: .sequentiallyConsistent)
        }

        func openGate() { open.store(true, ordering: .sequentiallyConsistent) }
    }

    @Test func workBeyondTheLimitWaitsForAThreadAndRunsInTheEnd() {
        let pool = BlockingPool(name: "test-pool-lim", limit: 3, idleLifetime: .milliseconds(50))
        let work = GatedWork()
        let finished = Atomic<Int>(0)
        for _ in 0..<10 {
            pool.submit {
                work.run()
                finished.add(1, ordering: .sequentiallyConsistent)
            }
        }
        // A pool starts its threads within `submit`: an unbounded one would have ten by now.
        #expect(ThreadNames.all.filter { $0.hasPrefix("test-pool-lim") }.count <= 3)
        // Said when it fails: whether a thread could not be started, or started and never ran.
        let allStarted = waitUntil { work.started.load(ordering: .sequentiallyConsistent) == 3 }
        let said = "\(work.started.load(ordering: .sequentiallyConsistent)) started; the pool's threads and start failures: "
            + "\(pool.workers.counts); its threads in /proc: \(ThreadNames.all.filter { $0.hasPrefix("test-pool-lim") })"
        #expect(allStarted, "\(said)")
        work.openGate()
        #expect(waitUntil { finished.load(ordering: .sequentiallyConsistent) == 10 })
        #expect(work.mostAtOnce.load(ordering: .sequentiallyConsistent) == 3)
        // Idle threads end: the pool costs nothing while nothing blocks.
        #expect(waitUntil { !ThreadNames.all.contains { $0.hasPrefix("test-pool-lim") } })
    }

    @Test("a thread that could not be started is started once another ends an item while work waits")
    func aThreadThatCouldNotStartIsStartedLater() {
        // Every start after the first fails while `failing`, as pthread_create does when the
        // system has no thread left for a while.
        let starts = Atomic<Int>(0)
        let failing = Atomic<Bool>(true)
        let workers = WorkerThreads(name: "test-pool-retry", numbered: true, limit: 2, idleLifetime: .milliseconds(50)) { name, body in
            let number = starts.add(1, ordering: .sequentiallyConsistent).newValue
            return number > 1 && failing.load(ordering: .sequentiallyConsistent) ? SystemError(code: EAGAIN) : EngineThread.start(named: name, body)
        }
        let work = GatedWork()
        let finished = Atomic<Int>(0)
        for _ in 0..<4 {
            workers.submit {
                work.run()
                finished.add(1, ordering: .sequentiallyConsistent)
            }
        }
        #expect(waitUntil { work.started.load(ordering: .sequentiallyConsistent) == 1 })
        #expect(workers.counts.startFailures >= 1)
        #expect(workers.counts.threads == 1)
        // Threads can be had again; no new work comes: the one thread's end of its item starts the other.
        failing.store(false, ordering: .sequentiallyConsistent)
        work.openGate()
        #expect(waitUntil { finished.load(ordering: .sequentiallyConsistent) == 4 })
        // Submits 2 to 4 each tried a second thread and failed; the first thread, its item
        // ended with three waiting, started it: the fifth start.
        #expect(workers.counts.startFailures == 3)
        #expect(waitUntil { starts.load(ordering: .sequentiallyConsistent) == 5 })
    }

    @Test func mapReturnsTheOutputsInTheItemsOrderAtMostWidthAtOnce() {
        let pool = BlockingPool(name: "test-pool-map", limit: 8, idleLifetime: .milliseconds(50))
        let running = Atomic<Int>(0)
        let mostAtOnce = Atomic<Int>(0)
        let outputs = pool.map(Array(0..<40), width: 3) { item -> String in
            let now = running.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
            _ = mostAtOnce.max(now, ordering: .sequentiallyConsistent)
            // Later items finish first: the order of the outputs is the items', not the ends'.
            usleep(UInt32((40 - item) * 50))
            running.subtract(1, ordering: .sequentiallyConsistent)
            return "item \(item)"
        }
        #expect(outputs == (0..<40).map { "item \($0)" })
        #expect(mostAtOnce.load(ordering: .sequentiallyConsistent) <= 3)
        #expect(pool.map([Int](), width: 3) { $0 } == [])
    }

    @Test func mapIsBoundedByThePoolsLimitTooAndBlockingQueuesRunInOrder() async {
        let pool = BlockingPool(name: "test-pool-cap", limit: 2, idleLifetime: .milliseconds(50))
        let mostAtOnce = Atomic<Int>(0)
        let running = Atomic<Int>(0)
        _ = pool.map(Array(0..<12), width: 10) { _ in
            let now = running.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
            _ = mostAtOnce.max(now, ordering: .sequentiallyConsistent)
            usleep(200)
            running.subtract(1, ordering: .sequentiallyConsistent)
        }
        #expect(mostAtOnce.load(ordering: .sequentiallyConsistent) <= 2)

        let queue = SerialWorkQueue(runningOn: .blockingPool)
        let order = LockedValue<[Int]>([])
        var last: UInt64 = 0
        for number in 0..<100 { last = queue.enqueue { order.update { $0.append(number) } } }
        await queue.waitUntilDelivered(last)
        #expect(order.value == Array(0..<100))
    }

    /// Polls `condition` on this thread every millisecond for up to 3 minutes. Not `await`: a
    /// test that awaits needs a free thread of the test process's pool to go on, and while
    /// other tests block every one (a full run at load 64) the gated work's own 120 s ran out
    /// first (6 items had started, not 3). Holding this thread, the test sees its pool's work as
    /// it happens.
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(180)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(1_000)
        }
        return condition()
    }
}
