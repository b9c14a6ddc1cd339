import DequeModule
import Glibc
import Synchronization

/// A serial executor: runs work one item at a time, in the order it was enqueued, on a thread
/// of the engine's (`Runner`) and never on the thread that enqueues it, unless that producer
/// asked to run the items itself (`enqueueToRunHere`).
///
/// Enqueueing only appends (and, when the queue was idle, hands the queue to its runner), so it
/// may be called while holding a lock of the caller's: the order of items is then the order of
/// the caller's state changes, and nothing the item does (a subscriber, a history write, a
/// driver's stop) runs under that lock or on the caller's thread. A key press, a driver's
/// reader or the process poller that enqueues is never held up by what it enqueued. An item
/// may enqueue more work; it runs after the item returns.
///
/// A queue is a list and a flag, not a thread: a thousand jobs' executors share the engine's
/// few pool threads (`Runner.enginePool`), and a queue whose items may block (subscribers and
/// callbacks, which are the host program's code) has a thread of its own
/// (`Runner.ownThread`), so what blocks there holds up that queue alone.
///
/// The engine uses one per `JobQueue` (or `UpdateInstaller`) for events and callbacks (one
/// global order, rule 8; its own thread), one per job as the job's executor (every input of the
/// job is performed there), and one per driver and driver session for their reports (which the
/// process poller runs itself when it finds the queue idle: handing them to the job only queues
/// inputs, and a hand-over to another thread per line cost more than the work).
public final class SerialWorkQueue: Sendable {
    /// Where a queue's items run.
    public enum Runner: Sendable {
        /// The engine's fixed pool (a few threads for the whole process): for items that never
        /// block. A busy queue runs what it holds, then goes to the back of the pool's list, so
        /// a flood on one job cannot starve the others.
        case enginePool
        /// A thread of the queue's own, named `name` (at most 15 characters are shown), started
        /// when items come and ended after a few idle seconds: for items that may block, such as
        /// the host program's subscribers and callbacks.
        case ownThread(name: String)
        /// The process's pool for blocking work (`BlockingPool.shared`): for items that block
        /// for a while and then end (a SQLite read, an apt plan). A queue runs what it holds,
        /// then goes to the back of the pool's list, as on the engine's pool.
        case blockingPool
    }

    private struct State {
        var pending: Deque<@Sendable () -> Void> = []
        var isDelivering = false
        /// The thread running items now, so `cleanUp` can refuse to wait on itself (rule 15).
        var deliveringThread: pthread_t?
        /// Tickets are the running count of enqueued items; everything up to `delivered` ran.
        var enqueued: UInt64 = 0
        var delivered: UInt64 = 0
        var waiters: [(ticket: UInt64, resume: @Sendable () -> Void)] = []

        /// Appends `work`; `mustStart` when the queue was idle and a runner must be asked for.
        mutating func append(_ work: @escaping @Sendable () -> Void) -> (ticket: UInt64, mustStart: Bool) {
            pending.append(work)
            enqueued += 1
            guard !isDelivering else { return (enqueued, false) }
            isDelivering = true
            return (enqueued, true)
        }
    }

    private let state = Mutex(State())
    /// Elements of batches enqueued and not run yet (`backlog`).
    private let waitingElements = Atomic<Int>(0)
    /// Where `deliverPending` runs.
    private let workers: WorkerThreads
    /// Whether a turn of `deliverPending` ends after one batch (on the shared pool) rather than
    /// when the queue is empty (on a thread of its own, or a producer's `runHere`).
    private let yieldsAfterBatch: Bool

    /// How long a queue's own thread waits for items before it ends.
    static let ownThreadIdleLifetime: Duration = .seconds(5)

    /// - Parameter runner: where the items run; the engine's pool unless they may block.
    public init(runningOn runner: Runner = .enginePool) {
        switch runner {
        case .enginePool:
            workers = WorkerThreads.engine
            yieldsAfterBatch = true
        case .ownThread(let name):
            workers = WorkerThreads(name: name, limit: 1, idleLifetime: Self.ownThreadIdleLifetime)
            yieldsAfterBatch = false
        case .blockingPool:
            workers = BlockingPool.shared.workers
            yieldsAfterBatch = true
        }
    }

    /// Appends `work`; it runs later, on the queue's runner, after everything enqueued before it.
    /// - Returns: a ticket for `whenDelivered(_:_:)` and `waitUntilDelivered(_:)`.
    @discardableResult
    public func enqueue(_ work: @escaping @Sendable () -> Void) -> UInt64 {
        let (ticket, mustStart) = state.withLock { $0.append(work) }
        if mustStart { schedule() }
        return ticket
    }

    /// Queues `elements` for `run`, behind everything queued so far: added to `open` when
    /// that batch's item is still the queue's last and has not started (they then run exactly
    /// where a new item would), otherwise in a new batch, which becomes `open`. A producer of
    /// many small items pays for one item and one hand-over per burst instead of one each.
    /// Call it under the producer's own lock, which guards `open`; `run` gets every element of
    /// its batch, in order.
    /// - Returns: the ticket of the item that runs them.
    @discardableResult
    public func enqueue<Element: Sendable>(
        _ elements: some Collection<Element>, joining open: inout SerialWorkBatch<Element>?,
        _ run: @escaping @Sendable ([Element]) -> Void
    ) -> UInt64 {
        let (ticket, mustStart) = append(elements, joining: &open, run)
        if mustStart { schedule() }
        return ticket
    }

    /// `enqueue(_:joining:_:)` for a producer whose thread may run the items itself, as the
    /// process poller does with a driver's reports at the end of a wake-up: when the queue was
    /// idle, no pool thread is woken and the result is `true`, and the producer must then call
    /// `runHere()` soon, with none of its locks held. Until then everything enqueued (by it or
    /// by others) only appends, and runs in that call, in order. A producer that must never run
    /// work on its thread (a key press, a stop request) uses `enqueue(_:joining:_:)`.
    public func enqueueToRunHere<Element: Sendable>(
        _ elements: some Collection<Element>, joining open: inout SerialWorkBatch<Element>?,
        _ run: @escaping @Sendable ([Element]) -> Void
    ) -> Bool {
        append(elements, joining: &open, run).mustStart
    }

    /// Runs the items queued on the calling thread; once for each time `enqueueToRunHere`
    /// returned `true`, with none of the caller's locks held. With `untilEmpty` (the default)
    /// it runs until the queue is empty; otherwise it runs the items queued when it starts and
    /// hands what came meanwhile to the queue's runner, so a thread with work of its own (the
    /// reactor, a callback queue) spends one turn here, not a flood's.
    public func runHere(untilEmpty: Bool = true) {
        deliverPending(untilEmpty: untilEmpty)
    }

    /// Hands the queue, which has items and is marked delivering, to its runner.
    private func schedule() {
        workers.submit { [self] in deliverPending(untilEmpty: !yieldsAfterBatch) }
    }

    /// Adds `elements` to `open` or a new batch (see `enqueue(_:joining:_:)`); `mustStart` when
    /// the queue was idle and its items need a runner.
    private func append<Element: Sendable>(
        _ elements: some Collection<Element>, joining open: inout SerialWorkBatch<Element>?,
        _ run: @escaping @Sendable ([Element]) -> Void
    ) -> (ticket: UInt64, mustStart: Bool) {
        let current = open
        // One turn of the lock either way: this runs for every event of a busy job.
        let (batch, mustStart) = state.withLock { state -> (SerialWorkBatch<Element>, Bool) in
            waitingElements.add(elements.count, ordering: .relaxed)
            // Nothing after it and not taken yet (the runner takes items under this lock).
            if let current, !state.pending.isEmpty, state.enqueued == current.ticket {
                current.append(contentsOf: elements)
                return (current, false)
            }
            let batch = SerialWorkBatch(Array(elements), ticket: state.enqueued + 1)
            return (batch, state.append { [self] in
                let taken = batch.take()
                run(taken)
                waitingElements.subtract(taken.count, ordering: .relaxed)
            }.mustStart)
        }
        open = batch
        return (batch.ticket, mustStart)
    }

    /// The elements queued in batches (`enqueue(_:joining:_:)`, `enqueueToRunHere`) that have
    /// not run yet: how far the queue's runner is behind the producers of a flood (a reader
    /// of a child's output holds the child back while it is high; see `UpdateReporter.backlog`).
    /// Items enqueued one by one are not counted.
    public var backlog: Int { waitingElements.load(ordering: .relaxed) }

    /// Whether the queue's runner is asleep: every thread of it waits for work, so handing it
    /// an item would wake one.
    public var runnerIsAsleep: Bool { workers.isAsleep }

    /// True when the calling thread is running one of this queue's items.
    public var isDeliveringOnCurrentThread: Bool {
        state.withLock { state in
            guard state.isDelivering, let thread = state.deliveringThread else { return false }
            return pthread_equal(thread, pthread_self()) != 0
        }
    }

    /// Calls `resume` once the item with `ticket` (and so everything before it) has run;
    /// at once, on the calling thread, if it already has. `resume` runs outside the queue's lock,
    /// on the queue's runner with `CallingThread.hasNothingWaiting` true when no item waits.
    public func whenDelivered(_ ticket: UInt64, _ resume: @escaping @Sendable () -> Void) {
        let done = state.withLock { state -> Bool in
            if state.delivered >= ticket { return true }
            state.waiters.append((ticket, resume))
            return false
        }
        if done { resume() }
    }

    /// Waits until the item with `ticket` has run.
    public func waitUntilDelivered(_ ticket: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenDelivered(ticket) { continuation.resume() }
        }
    }

    /// Runs items on the runner's thread or on the thread of a `runHere`: until the queue is
    /// empty, or, with `untilEmpty` false, the items queued when it starts, after which a
    /// queue that has more goes to the back of its runner's list. Items are taken in batches,
    /// so producers and the deliverer meet at the lock once per batch rather than once per item.
    private func deliverPending(untilEmpty: Bool) {
        state.withLock { $0.deliveringThread = pthread_self() }
        var first = true
        while true {
            let (batch, yields) = state.withLock { state -> (Deque<@Sendable () -> Void>?, Bool) in
                guard !state.pending.isEmpty, first || untilEmpty else {
                    // Items that wait keep the queue delivering: it is taken up again.
                    state.isDelivering = !state.pending.isEmpty
                    state.deliveringThread = nil
                    return (nil, state.isDelivering)
                }
                defer { state.pending = [] }
                return (state.pending, false)
            }
            guard let batch else {
                if yields { schedule() }
                return
            }
            first = false
            for work in batch { work() }
            let (ready, drained) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                state.delivered += UInt64(batch.count)
                guard !state.waiters.isEmpty else { return ([], false) }
                let delivered = state.delivered
                let ready = state.waiters.filter { $0.ticket <= delivered }.map(\.resume)
                state.waiters.removeAll { $0.ticket <= delivered }
                return (ready, state.pending.isEmpty)
            }
            guard !ready.isEmpty else { continue }
            // With nothing left to deliver, a waiter may run its next step here (a job's launch).
            CallingThread.$hasNothingWaiting.withValue(drained) {
                for resume in ready { resume() }
            }
        }
    }
}
