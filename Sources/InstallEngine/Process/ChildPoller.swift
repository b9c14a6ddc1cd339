import CPosixSpawn
import Glibc
import Synchronization

/// The one thread that watches every child of every `ProcessBackend` in the process: one epoll
/// set holds each child's three pipes and its pidfd, so a thousand running updates cost one
/// thread, not a thousand.
///
/// `watch` hands a child over from any thread; from then on only the poller's thread touches
/// it: it reads the pipes and hands each line to its sink, reaps the child when its pidfd turns readable
/// (or, without a pidfd, when `waitpid(WNOHANG)` finds it gone, checked every 20 ms), drains the
/// pipes for at most the drain timeout and settles the outcome. Sinks run on this thread
/// and must never block: what their reports lead to (subscribers, history writes, a driver's
/// follow-up) runs on a `SerialWorkQueue`, so a subscriber that blocks cannot hold up the
/// reading of the children.
final class ChildPoller: Sendable {
    /// The poller of this process. Its thread starts with the first child and never ends.
    static let shared = ChildPoller()

    /// The most bytes read at once; also the most bytes of fd 3 whose progress lines merge.
    private static let readSize = 64 * 1024
    /// How often to look for the exit of children without a pidfd.
    private static let exitCheckIntervalMilliseconds: Int32 = 20
    /// The token of the wake-up pipe; children's tokens are `id << 2 | slot` with `id` ≥ 1.
    private static let wakeToken: UInt64 = 0

    private struct Registry {
        /// -1 until the thread runs.
        var epoll: Int32 = -1
        var wakeRead: Int32 = -1
        var wakeWrite: Int32 = -1
        var lastID: UInt64 = 0
        /// Children handed over and not yet taken by the poller's thread.
        var arrivals: [WatchedChild] = []
    }

    private let registry = Mutex(Registry())
    private init() {}

    /// Hands `child` over to the poller, starting its thread first if needed. Returns why it
    /// could not (no descriptors or threads left); the child is then abandoned: killed, reaped
    /// and its descriptors closed, with nothing reported.
    func watch(_ child: SpawnedChild, handle: ChildProcess, sinks: ChildSinks,
               maxLineBytes: Int, drainTimeout: Duration) -> SystemError? {
        registry.withLock { registry -> SystemError? in
            if registry.epoll < 0, let error = start(&registry) {
                WatchedChild(id: 0, child: child, handle: handle, sinks: sinks, maxLineBytes: maxLineBytes,
                             drainTimeout: drainTimeout, epoll: -1).abandon()
                return error
            }
            registry.lastID += 1
            let watched = WatchedChild(id: registry.lastID, child: child, handle: handle, sinks: sinks,
                                       maxLineBytes: maxLineBytes, drainTimeout: drainTimeout, epoll: registry.epoll)
            // Registered under the lock: the thread takes the arrivals under it after every
            // wait, so it knows the child before it looks up any of its events.
            if let error = watched.register() {
                watched.abandon()
                return error
            }
            registry.arrivals.append(watched)
            // Only a child without a pidfd needs the thread to change its timeout now; the
            // others wake it with their own descriptors.
            if watched.needsExitChecks {
                var byte: UInt8 = 1
                _ = write(registry.wakeWrite, &byte, 1)
            }
            return nil
        }
    }

    // MARK: - Thread

    /// Creates the epoll set and the wake-up pipe and starts the thread; on failure leaves the
    /// registry as it was, so the next child tries again.
    private func start(_ registry: inout Registry) -> SystemError? {
        let epoll = cps_epoll_create()
        guard epoll >= 0 else { return .current }
        var wake: [Int32] = [-1, -1]
        guard cps_pipe_cloexec(&wake, 1) == 0 else {
            let error = SystemError.current
            close(epoll)
            return error
        }
        guard cps_epoll_add(epoll, wake[0], Self.wakeToken, 0) == 0 else {
            let error = SystemError.current
            for fd in [epoll, wake[0], wake[1]] { close(fd) }
            return error
        }

        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, &attributes, { context in
            Unmanaged<ChildPoller>.fromOpaque(context!).takeRetainedValue().run()
        }, context)
        guard code == 0 else {
            Unmanaged<ChildPoller>.fromOpaque(context).release()
            for fd in [epoll, wake[0], wake[1]] { close(fd) }
            return SystemError(code: code)
        }
        // The thread reads these under the lock, which `watch` holds until they are set.
        registry.epoll = epoll
        registry.wakeRead = wake[0]
        registry.wakeWrite = wake[1]
        return nil
    }

    /// The event loop. Children are looked up by id; one that settled is forgotten, so a late
    /// event in the same batch finds nothing.
    private func run() -> Never {
        // Named for htop and ps -L (at most 15 characters).
        cps_name_current_thread("installtop-poll")
        let (epoll, wakeRead) = registry.withLock { ($0.epoll, $0.wakeRead) }
        // Signals are for the engine's own threads (the CLI turns SIGINT into an abort).
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        pthread_sigmask(SIG_BLOCK, &allSignals, nil)

        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: Self.readSize)
        var tokens = [UInt64](repeating: 0, count: Int(CPS_EPOLL_MAX_EVENTS))
        var children: [UInt64: WatchedChild] = [:]
        /// Reaped and draining, without a pidfd, holding back `afterReads` or with pipes paused:
        /// the children to look at after every wait.
        var attention: [UInt64: WatchedChild] = [:]
        /// The children read from in this wake-up, told once it is over (`flushReads`).
        var touched: [WatchedChild] = []
        /// The groups of settled children whose adopted orphans are still to be reaped.
        var orphans = OrphanSweep()

        while true {
            let count = tokens.withUnsafeMutableBufferPointer { tokens in
                cps_epoll_wait(epoll, tokens.baseAddress, Int32(tokens.count),
                               timeout(for: attention.values, orphansDue: orphans.nextDue))
            }
            let arrivals = registry.withLock { registry in
                defer { registry.arrivals = [] }
                return registry.arrivals
            }
            for child in arrivals {
                children[child.id] = child
                if child.needsExitChecks { attention[child.id] = child }
            }
            if count < 0, cps_errno() != EINTR {
                // epoll_wait itself failed (it cannot with a valid set): keep checking, slowly.
                _ = poll(nil, 0, Self.exitCheckIntervalMilliseconds)
            }
            for token in tokens.prefix(max(0, Int(count))) {
                if token == Self.wakeToken {
                    var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
                    while withUnsafeMutableBytes(of: &bytes, { read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
                    continue
                }
                guard let child = children[token >> 2] else { continue }
                child.descriptorReady(slot: token & 3, buffer: buffer)
                if !touched.contains(where: { $0 === child }) { touched.append(child) }
                if child.hasExited { attention[child.id] = child }
            }
            let now = ContinuousClock.now
            for child in touched {
                child.pauseReads(now: now)
                child.flushReads(now: now)
                if child.afterReadsDue != nil || child.readsResume != nil { attention[child.id] = child }
            }
            touched.removeAll(keepingCapacity: true)
            for child in attention.values {
                child.checkExit(buffer: buffer)
                if child.settleIfDrained(now: now) {
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
        }
    }

    /// How long `epoll_wait` may sleep: until the nearest drain deadline or orphan sweep, at
    /// most the exit check interval while a child has no pidfd, forever when nothing is pending.
    private func timeout(for children: Dictionary<UInt64, WatchedChild>.Values,
                         orphansDue: ContinuousClock.Instant?) -> Int32 {
        var milliseconds: Int32 = -1
        let now = ContinuousClock.now
        func until(_ deadline: ContinuousClock.Instant) -> Int32 {
            let remaining = now.duration(to: deadline)
            return remaining <= .zero ? 0 : Int32(min(remaining / .milliseconds(1), 60_000).rounded(.up))
        }
        if let orphansDue { milliseconds = until(orphansDue) }
        for child in children {
            var wait: Int32?
            if let deadline = child.drainDeadline {
                wait = until(deadline)
            } else if child.needsExitChecks {
                wait = Self.exitCheckIntervalMilliseconds
            }
            if let due = child.afterReadsDue { wait = min(wait ?? .max, until(due)) }
            if let resume = child.readsResume { wait = min(wait ?? .max, until(resume)) }
            guard let wait else { continue }
            milliseconds = milliseconds < 0 ? wait : min(milliseconds, wait)
        }
        return milliseconds
    }
}
