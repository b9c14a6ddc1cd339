import Dispatch
import DequeModule
import Glibc
import Synchronization

/// Runs callbacks one at a time, in the order they were enqueued, without a thread of its own.
///
/// Whoever enqueues while nobody is delivering becomes the deliverer and runs the queue until it
/// is empty; everybody else only appends. So callbacks never run concurrently, never run while
/// an engine lock is held, and a callback may enqueue more work (it runs after the callback
/// returns) without deadlock. One queue is shared by every job of a `JobQueue`, which gives
/// consumers one global order.
public final class CallbackQueue: Sendable {
    private struct State {
        var pending: Deque<@Sendable () -> Void> = []
        var isDelivering = false
        /// The thread running callbacks now, so `cleanUp` can refuse to wait on itself (rule 15).
        var deliveringThread: pthread_t?
        /// Tickets are the running count of enqueued items; everything up to `delivered` ran.
        var enqueued: UInt64 = 0
        var delivered: UInt64 = 0
        var waiters: [(ticket: UInt64, resume: @Sendable () -> Void)] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Appends `work` and, if nobody is delivering, delivers until the queue is empty.
    /// - Returns: a ticket for `waitUntilDelivered(_:)`.
    @discardableResult
    public func enqueue(_ work: @escaping @Sendable () -> Void) -> UInt64 {
        let appended = append(work)
        if appended.mustDeliver { deliverPending() }
        return appended.ticket
    }

    /// Appends `work` without delivering, for callers that hold a lock of their own (so that
    /// the order of items matches the order of their state changes). When `mustDeliver` is
    /// true the caller has become the deliverer and must call `deliverPending()` once it has
    /// released its lock.
    func append(_ work: @escaping @Sendable () -> Void) -> (ticket: UInt64, mustDeliver: Bool) {
        state.withLock { state in
            state.pending.append(work)
            state.enqueued += 1
            guard !state.isDelivering else { return (state.enqueued, false) }
            state.isDelivering = true
            state.deliveringThread = pthread_self()
            return (state.enqueued, true)
        }
    }

    /// True when the calling thread is inside one of this queue's callbacks.
    public var isDeliveringOnCurrentThread: Bool {
        state.withLock { state in
            guard state.isDelivering, let thread = state.deliveringThread else { return false }
            return pthread_equal(thread, pthread_self()) != 0
        }
    }

    /// Calls `resume` once the item with `ticket` (and so everything before it) has run;
    /// at once if it already has. `resume` runs outside the queue's lock.
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

    /// Runs items until the queue is empty. Only the deliverer chosen by `append` calls this.
    /// Items are taken in batches, so producers and the deliverer meet at the lock once per
    /// batch rather than once per item.
    ///
    /// On the process backend's poller thread it hands the delivery to a thread of the global
    /// pool instead: that thread reads every child's pipes, and a subscriber that blocks (a
    /// history write waiting for another writer's lock) must not stop it.
    func deliverPending() {
        if ChildPoller.isCurrentThread {
            DispatchQueue.global().async { self.deliverPending() }
            return
        }
        state.withLock { $0.deliveringThread = pthread_self() }
        while true {
            let batch = state.withLock { state -> Deque<@Sendable () -> Void>? in
                guard !state.pending.isEmpty else {
                    state.isDelivering = false
                    state.deliveringThread = nil
                    return nil
                }
                defer { state.pending = [] }
                return state.pending
            }
            guard let batch else { return }
            for work in batch { work() }
            let ready = state.withLock { state -> [@Sendable () -> Void] in
                state.delivered += UInt64(batch.count)
                guard !state.waiters.isEmpty else { return [] }
                let delivered = state.delivered
                let ready = state.waiters.filter { $0.ticket <= delivered }.map(\.resume)
                state.waiters.removeAll { $0.ticket <= delivered }
                return ready
            }
            for resume in ready { resume() }
        }
    }
}
