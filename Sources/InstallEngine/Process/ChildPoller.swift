import Synchronization

/// Watches every child of every `ProcessBackend` in the process on the engine's `Reactor`:
/// each child's three pipes and its pidfd are registrations of the one epoll set that also
/// times the engine's timers, so a thousand running updates and their timeouts cost one
/// thread, not a thousand.
///
/// `watch` hands a child over from any thread; from then on only the reactor's thread touches
/// it: it reads the pipes and hands each line to its sink, reaps the child when its pidfd turns
/// readable (or, without a pidfd, when `waitpid(WNOHANG)` finds it gone, checked every 20 ms),
/// drains the pipes for at most the drain timeout and settles the outcome. Sinks run on that
/// thread and must never block: what their reports lead to (subscribers, history writes, a
/// driver's follow-up) runs on a `SerialWorkQueue`, so a subscriber that blocks cannot hold up
/// the reading of the children. An outcome's handler may do a little more when this child is
/// the only one watched (`CallingThread.hasNothingWaiting`): the job runner then performs the
/// child's end here if the job's executor is idle (one turn of its machine, which queues
/// callbacks and never blocks), sparing a pool thread's wake-up per update.
///
/// One wake-up of the reactor reads every ready descriptor first (`descriptorReady`); a pass
/// posted from the first read then finishes what the reads started (`pass`: the children's
/// `afterReads`, pauses, exits and drains), once for all of them. Deadlines (a drain's end, a
/// paced child's next read, an exit check, an orphan sweep) are one reactor timer at the
/// nearest of them.
///
/// Unchecked Sendable: `registry` is shared under its lock; every other stored property is
/// touched only on the reactor's thread (its handlers, timers and posted closures).
final class ChildPoller: @unchecked Sendable {
    /// The poller of this process, on the engine's reactor.
    static let shared = ChildPoller(reactor: .shared)

    /// The most bytes read at once; also the most bytes of fd 3 whose progress lines merge.
    private static let readSize = 64 * 1024
    /// How often to look for the exit of children without a pidfd.
    private static let exitCheckInterval = Duration.milliseconds(20)

    private struct Registry {
        var lastID: UInt64 = 0
        /// Children handed over and not yet taken on the reactor's thread.
        var arrivals: [WatchedChild] = []
    }

    private let reactor: Reactor
    private let registry = Mutex(Registry())

    // MARK: Reactor-thread state

    private let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: readSize)
    private var children: [UInt64: WatchedChild] = [:]
    /// Reaped and draining, without a pidfd, holding back `afterReads` or with pipes paused:
    /// the children to look at in every pass.
    private var attention: [UInt64: WatchedChild] = [:]
    /// The children read from since the last pass, told once it runs (`flushReads`).
    private var touched: [WatchedChild] = []
    /// The groups of settled children whose adopted orphans are still to be reaped.
    private var orphans = OrphanSweep()
    /// A pass is posted and has not run yet.
    private var passPosted = false
    /// The reactor timer of the next pass, and when it fires.
    private var timer: (token: Reactor.Timer, deadline: ContinuousClock.Instant)?

    init(reactor: Reactor) {
        self.reactor = reactor
    }

    deinit {
        buffer.deallocate()
    }

    /// Hands `child` over to the poller, starting the reactor first if needed. Returns why it
    /// could not (no descriptors or threads left); the child is then abandoned: killed, reaped
    /// and its descriptors closed, with nothing reported.
    func watch(_ child: SpawnedChild, handle: ChildProcess, sinks: ChildSinks,
               maxLineBytes: Int, drainTimeout: Duration) -> SystemError? {
        let refused = registry.withLock { registry -> (child: WatchedChild, error: SystemError)? in
            registry.lastID += 1
            let id = registry.lastID
            let watched = WatchedChild(id: id, child: child, handle: handle, sinks: sinks, maxLineBytes: maxLineBytes,
                                       drainTimeout: drainTimeout, reactor: reactor)
            // Registered under the lock: every handler takes the arrivals under it first, so
            // it knows the child before it looks it up.
            if let error = watched.register({ [self] slot in descriptorReady(id: id, slot: slot) }) {
                return (watched, error)
            }
            registry.arrivals.append(watched)
            // Only a child without a pidfd needs a pass now (to start its exit checks); the
            // others come with their own descriptors.
            if watched.needsExitChecks {
                reactor.post { [self] in
                    admitArrivals()
                    pass()
                }
            }
            return nil
        }
        guard let refused else { return nil }
        // Outside the lock: cancelling waits for a handler of this child that may be running,
        // and that handler takes the lock first.
        refused.child.abandon()
        return refused.error
    }

    // MARK: - On the reactor's thread

    private func admitArrivals() {
        let arrivals = registry.withLock { registry in
            defer { registry.arrivals = [] }
            return registry.arrivals
        }
        for child in arrivals {
            children[child.id] = child
            if child.needsExitChecks { attention[child.id] = child }
        }
    }

    /// A descriptor of child `id` is ready: reads it (or reaps the child), and posts the pass
    /// that finishes this wake-up's reads. A child that settled is forgotten, so a late event
    /// finds nothing.
    private func descriptorReady(id: UInt64, slot: UInt64) {
        admitArrivals()
        guard let child = children[id] else { return }
        child.descriptorReady(slot: slot, buffer: buffer)
        if !touched.contains(where: { $0 === child }) { touched.append(child) }
        if child.hasExited { attention[child.id] = child }
        guard !passPosted else { return }
        passPosted = true
        reactor.post { [self] in pass() }
    }

    /// Tells the children read since the last pass that their reads are over, then looks at
    /// every child that needs attention: reaps, settles, flushes held-back `afterReads`,
    /// resumes paused reads; sweeps orphans when due; and sets the timer for the next pass.
    private func pass() {
        passPosted = false
        admitArrivals()
        let now = ContinuousClock.now
        for child in touched {
            child.pauseReads(now: now)
            child.flushReads(now: now)
            if child.afterReadsDue != nil || child.readsResume != nil { attention[child.id] = child }
        }
        touched.removeAll(keepingCapacity: true)
        for child in attention.values {
            child.checkExit(buffer: buffer)
            // Settling the only child watched, this thread has nothing else waiting: the job
            // may perform the child's end here. (Bound only then: each binding is an allocation,
            // and a pass looks at every child that needs attention.)
            let settled = child.hasExited && children.count == 1
                ? CallingThread.$hasNothingWaiting.withValue(true) { child.settleIfDrained(now: now) }
                : child.settleIfDrained(now: now)
            if settled {
                children[child.id] = nil
                attention[child.id] = nil
                orphans.groupEnded(child.pid, now: now)
                continue
            }
            child.flushReads(now: now)
            child.resumeReads(now: now)
            if !child.needsExitChecks, !child.hasExited, child.afterReadsDue == nil, child.readsResume == nil {
                attention[child.id] = nil
            }
        }
        if let due = orphans.nextDue, due <= now {
            orphans.sweep(now: now) { group in children.values.contains { $0.pid == group } }
        }
        scheduleNextPass(now: now)
    }

    /// Sets the timer at the nearest deadline, unless one is set no later: a pass that comes
    /// early finds nothing due and sets the timer again, which costs less than moving the
    /// timer on every pass.
    private func scheduleNextPass(now: ContinuousClock.Instant) {
        guard let next = nextDeadline(now: now) else { return }
        if let timer {
            guard next < timer.deadline else { return }
            reactor.cancel(timer.token)
        }
        let token = reactor.schedule(at: next) { [self] in
            timer = nil
            pass()
        }
        timer = (token, next)
    }

    /// The nearest drain deadline, paced read, held-back `afterReads` or orphan sweep; an exit
    /// check interval from now while a child has no pidfd; `nil` when nothing is pending.
    private func nextDeadline(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        var next = orphans.nextDue
        func consider(_ deadline: ContinuousClock.Instant?) {
            guard let deadline else { return }
            next = min(next ?? deadline, deadline)
        }
        for child in attention.values {
            if let deadline = child.drainDeadline {
                consider(deadline)
            } else if child.needsExitChecks {
                consider(now + Self.exitCheckInterval)
            }
            consider(child.afterReadsDue)
            consider(child.readsResume)
        }
        return next
    }
}
