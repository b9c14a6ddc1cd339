import CPosixSpawn
// DispatchSemaphore only: a futex on Linux; no Dispatch thread is ever started here.
import Dispatch
import Glibc
import Synchronization

/// One event loop on one named thread: an epoll set for file descriptors, a heap of deadlines
/// on the monotonic clock for timers, and a list of closures posted to run on the loop. The
/// engine's children (`ChildPoller`) and timers (`EngineTimers`) share `shared`, so they cost
/// one thread however many there are.
///
/// Everything the loop calls — a descriptor's handler, a timer, a posted closure — runs on the
/// loop's thread, one at a time, and **must never block**: no waiting for a lock held across
/// anything slow, no disk or network I/O that may wait, no waiting for another thread. A
/// handler that blocks holds up every descriptor and timer of the loop. What may block goes to
/// a `SerialWorkQueue` or the `BlockingPool`.
///
/// One wake-up of the loop: the handlers of the descriptors found ready, in the order epoll
/// gives them; then the timers that are due, nearest deadline first; then the closures posted
/// so far, in the order they were posted. A closure posted from a handler therefore runs after
/// every handler of the same wake-up (`ChildPoller` finishes a wake-up's reads that way).
///
/// The thread starts with the first registration, timer or post, and runs until `stop()`
/// (the shared reactor is never stopped). Its signals are blocked (`EngineThread`).
public final class Reactor: Sendable {
    /// The reactor of the engine: every child's pipes and pidfd, every engine timer. Its
    /// thread is `installtop-poll`.
    public static let shared = Reactor(name: "installtop-poll")

    /// Names one registered descriptor, for `watch`, `hold` and `cancel`.
    public struct Registration: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    /// Names one scheduled timer, for `cancel`.
    public struct Timer: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    /// What epoll reported for a descriptor.
    public struct Readiness: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// There is something to read (or end of file: a read returns 0).
        public static let readable = Readiness(rawValue: UInt32(CPS_READY_READABLE))
        /// The other end hung up (a pipe's writer or a socket's peer closed it).
        public static let hangUp = Readiness(rawValue: UInt32(CPS_READY_HANG_UP))
        /// An error is pending on the descriptor.
        public static let error = Readiness(rawValue: UInt32(CPS_READY_ERROR))
    }

    private struct Descriptor {
        var fd: Int32
        var handler: @Sendable (Readiness) -> Void
    }

    private struct State {
        /// -1 until the thread runs, and again once it stopped.
        var epoll: Int32 = -1
        var wakeRead: Int32 = -1
        var wakeWrite: Int32 = -1
        var stopping = false
        var stopped = false
        /// Ids of registrations and timers alike; 0 is the wake-up pipe's token.
        var lastID: UInt64 = 0
        var descriptors: [UInt64: Descriptor] = [:]
        var timers: [UInt64: @Sendable () -> Void] = [:]
        var deadlines = DeadlineHeap()
        var posted: [@Sendable () -> Void] = []
        /// A byte is in the wake-up pipe, or the loop is awake and will look before it waits:
        /// no second byte is needed.
        var wakePending = false
        /// The registration or timer whose call is running now; 0: none.
        var running: UInt64 = 0
        /// Threads in `cancel` waiting for the running call of a registration to return.
        var cancelWaiters: [DispatchSemaphore] = []
        /// Posted once the thread has ended, for `stop()`.
        var endWaiters: [DispatchSemaphore] = []
    }

    /// The wake-up pipe's token in the epoll set.
    private static let wakeToken: UInt64 = 0
    /// The longest single wait: a deadline further away is waited for in steps.
    private static let longestWaitMilliseconds: Int64 = 60_000

    private let name: String
    private let state = Mutex(State())
    /// The loop's thread (`pthread_self`), 0 before it runs: tells a call from a handler from
    /// a call from another thread without taking the lock.
    private let loopThread = Atomic<UInt>(0)

    /// A reactor whose thread will be named `name` (at most 15 characters are kept). Nothing
    /// starts until it is first used.
    public init(name: String) {
        self.name = name
    }

    /// Whether the caller runs on the loop's thread: in a handler, a timer or a posted closure.
    public var isOnLoopThread: Bool {
        let loop = loopThread.load(ordering: .acquiring)
        return loop != 0 && pthread_equal(loop, pthread_self()) != 0
    }

    // MARK: - Descriptors

    /// Calls `handler` on the loop's thread whenever `fd` is readable, hung up or in error
    /// (level-triggered: again on every wake-up while it stays so). With `oneShot`, only the
    /// first time, then not again until `watch(_:oneShot:)`. Safe from any thread.
    ///
    /// The descriptor stays the caller's: the reactor never reads it nor closes it. Cancel the
    /// registration before closing it: epoll forgets a descriptor only when every copy of it
    /// is closed (a child being spawned elsewhere may hold a copy for a moment).
    /// - Throws: why epoll did not take it (a descriptor that cannot be polled, one already
    ///   registered, no memory), or why the thread could not start; `ESHUTDOWN` once stopped.
    public func register(_ fd: Int32, oneShot: Bool = false,
                         _ handler: @escaping @Sendable (Readiness) -> Void) throws(SystemError) -> Registration {
        let result = state.withLock { state -> Result<Registration, SystemError> in
            if let error = startIfNeeded(&state) { return .failure(error) }
            state.lastID += 1
            let id = state.lastID
            // In the table before epoll can report it, so the loop finds its handler.
            state.descriptors[id] = Descriptor(fd: fd, handler: handler)
            guard cps_epoll_add(state.epoll, fd, id, oneShot ? 1 : 0) == 0 else {
                state.descriptors[id] = nil
                return .failure(.current)
            }
            return .success(Registration(id: id))
        }
        return try result.get()
    }

    /// Watches a one-shot registration again after its report, or one held by `hold`: its
    /// handler is called on the next wake-up if the descriptor is ready already. Does nothing
    /// for a cancelled registration.
    public func watch(_ registration: Registration, oneShot: Bool) {
        state.withLock { state in
            guard let descriptor = state.descriptors[registration.id] else { return }
            _ = cps_epoll_watch(state.epoll, descriptor.fd, registration.id, oneShot ? 1 : 0)
        }
    }

    /// Stops reporting the descriptor's input until `watch(_:oneShot:)`; a hang-up or an error
    /// is still reported, once. Does nothing for a cancelled registration.
    public func hold(_ registration: Registration) {
        state.withLock { state in
            guard let descriptor = state.descriptors[registration.id] else { return }
            _ = cps_epoll_hold(state.epoll, descriptor.fd, registration.id)
        }
    }

    /// Takes the descriptor out of the epoll set and forgets its handler. When it returns, the
    /// handler is not running and is never called again: from the loop's thread (a handler
    /// cancelling itself or another) at once; from another thread it waits for a call of this
    /// handler that is running to return — so do not call it from another thread while holding
    /// a lock that this handler takes. Cancelling twice, or after `stop()`, does nothing.
    public func cancel(_ registration: Registration) {
        let onLoop = isOnLoopThread
        let waiter = state.withLock { state -> DispatchSemaphore? in
            if let descriptor = state.descriptors.removeValue(forKey: registration.id), state.epoll >= 0 {
                _ = cps_epoll_remove(state.epoll, descriptor.fd)
            }
            guard !onLoop, state.running == registration.id else { return nil }
            let waiter = DispatchSemaphore(value: 0)
            state.cancelWaiters.append(waiter)
            return waiter
        }
        waiter?.wait()
    }

    // MARK: - Timers

    /// Calls `fire` on the loop's thread once `deadline` has come (at once on the next
    /// wake-up for one past), unless cancelled first. Timers due in the same wake-up fire
    /// nearest deadline first. Safe from any thread; does nothing once stopped.
    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ fire: @escaping @Sendable () -> Void) -> Timer {
        let onLoop = isOnLoopThread
        return state.withLock { state -> Timer in
            state.lastID += 1
            let id = state.lastID
            guard !state.stopping else { return Timer(id: id) }
            startOrDie(&state)
            state.timers[id] = fire
            state.deadlines.insert(DeadlineHeap.Item(deadline: deadline, id: id))
            // The loop looks at the deadlines again before it next waits; woken only if it
            // may be waiting for a later one now.
            if !onLoop { wake(&state) }
            return Timer(id: id)
        }
    }

    /// `schedule(at: .now + delay, fire)`.
    @discardableResult
    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> Timer {
        schedule(at: .now + delay, fire)
    }

    /// Forgets the timer: it never fires after this returns, except that a call already
    /// running on the loop's thread when another thread cancels goes on to its end (this does
    /// not wait for it, so it may be called holding any lock). From the loop's thread nothing
    /// runs at the same time, so there it never fires after. Cancelling a timer that fired
    /// already, or twice, does nothing.
    public func cancel(_ timer: Timer) {
        _ = state.withLock { $0.timers.removeValue(forKey: timer.id) }
    }

    // MARK: - Posting

    /// Runs `work` on the loop's thread, after the handlers and timers of the current wake-up
    /// (of the next, when called from another thread), in the order posts were made. Safe from
    /// any thread; does nothing once stopped.
    public func post(_ work: @escaping @Sendable () -> Void) {
        let onLoop = isOnLoopThread
        state.withLock { state in
            guard !state.stopping else { return }
            startOrDie(&state)
            state.posted.append(work)
            if !onLoop { wake(&state) }
        }
    }

    // MARK: - Stopping

    /// Ends the loop's thread after its current wake-up; registrations, timers and posts not
    /// run yet are forgotten (no descriptor is closed: they are their registrants'). From
    /// another thread it waits for the thread to end; from the loop's thread it returns at
    /// once. A reactor that never started just refuses further use. For reactors of their own
    /// (tests, a link's); the shared one is never stopped.
    public func stop() {
        let onLoop = isOnLoopThread
        let waiter = state.withLock { state -> DispatchSemaphore? in
            guard !state.stopped else { return nil }
            state.stopping = true
            guard state.epoll >= 0 else {
                state.stopped = true
                return nil
            }
            wake(&state)
            guard !onLoop else { return nil }
            let waiter = DispatchSemaphore(value: 0)
            state.endWaiters.append(waiter)
            return waiter
        }
        waiter?.wait()
    }

    // MARK: - Thread

    /// Creates the epoll set and the wake-up pipe and starts the thread, unless running; on
    /// failure leaves the state as it was, so the next call tries again.
    private func startIfNeeded(_ state: inout State) -> SystemError? {
        if state.stopping || state.stopped { return SystemError(code: ESHUTDOWN) }
        guard state.epoll < 0 else { return nil }
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
        let wakeRead = wake[0]
        if let error = EngineThread.start(named: name, { [self] in run(epoll: epoll, wakeRead: wakeRead) }) {
            for fd in [epoll, wake[0], wake[1]] { close(fd) }
            return error
        }
        // The thread reads these under the lock, which the caller holds until they are set.
        state.epoll = epoll
        state.wakeRead = wake[0]
        state.wakeWrite = wake[1]
        return nil
    }

    /// `startIfNeeded`, for timers and posts, which have no way to say it failed: a process
    /// whose loop cannot start cannot go on (its timeouts would never fire).
    private func startOrDie(_ state: inout State) {
        if let error = startIfNeeded(&state) {
            fatalError("installtop: cannot start the event loop (\(name)): \(error.description)")
        }
    }

    /// Makes the loop's next (or current) wait return, once per wait.
    private func wake(_ state: inout State) {
        guard !state.wakePending, state.wakeWrite >= 0 else { return }
        state.wakePending = true
        var byte: UInt8 = 1
        _ = write(state.wakeWrite, &byte, 1)
    }

    private func run(epoll: Int32, wakeRead: Int32) {
        loopThread.store(pthread_self(), ordering: .releasing)
        var tokens = [UInt64](repeating: 0, count: Int(CPS_EPOLL_MAX_EVENTS))
        var events = [UInt32](repeating: 0, count: Int(CPS_EPOLL_MAX_EVENTS))
        while true {
            let timeout = state.withLock { state -> Int32 in
                // Whatever arrives from here on needs a byte to wake the wait.
                state.wakePending = false
                return waitMilliseconds(state)
            }
            let count = cps_epoll_wait_events(epoll, &tokens, &events, Int32(tokens.count), timeout)
            if count < 0, cps_errno() != EINTR {
                // epoll_wait itself failed (it cannot with a valid set): keep going, slowly.
                _ = poll(nil, 0, 20)
            }
            for index in 0..<max(0, Int(count)) {
                let token = tokens[index]
                if token == Self.wakeToken {
                    var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
                    while withUnsafeMutableBytes(of: &bytes, { read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
                    continue
                }
                let handler = state.withLock { state -> (@Sendable (Readiness) -> Void)? in
                    // A registration cancelled since the wait returned is not called.
                    guard let descriptor = state.descriptors[token] else { return nil }
                    state.running = token
                    return descriptor.handler
                }
                guard let handler else { continue }
                handler(Readiness(rawValue: events[index]))
                finishedRunning()
            }
            fireDueTimers()
            let posted = state.withLock { state in
                defer { state.posted = [] }
                return state.posted
            }
            for work in posted { work() }
            if state.withLock({ $0.stopping }) {
                end()
                return
            }
        }
    }

    /// Fires the timers due now, one at a time: a timer that cancels a later one due in the
    /// same wake-up stops it.
    private func fireDueTimers() {
        let now = ContinuousClock.now
        while true {
            let fire = state.withLock { state -> (@Sendable () -> Void)?? in
                guard let first = state.deadlines.first, first.deadline <= now else { return .none }
                _ = state.deadlines.popFirst()
                // A cancelled timer is skipped (`.some(nil)`): it left the table, not the heap.
                return .some(state.timers.removeValue(forKey: first.id))
            }
            guard let fire else { return }
            fire?()
        }
    }

    private func finishedRunning() {
        let waiters = state.withLock { state -> [DispatchSemaphore] in
            state.running = 0
            defer { state.cancelWaiters = [] }
            return state.cancelWaiters
        }
        for waiter in waiters { waiter.signal() }
    }

    /// How long the wait may sleep: not at all with posts waiting, until the nearest deadline
    /// (rounded up to a millisecond, so it never wakes early), forever with none.
    private func waitMilliseconds(_ state: State) -> Int32 {
        guard state.posted.isEmpty, !state.stopping else { return 0 }
        guard let first = state.deadlines.first else { return -1 }
        let remaining = ContinuousClock.now.duration(to: first.deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(milliseconds, Self.longestWaitMilliseconds))
    }

    /// Closes the loop's descriptors, forgets what is left and lets `stop()` return.
    private func end() {
        loopThread.store(0, ordering: .releasing)
        let waiters = state.withLock { state -> [DispatchSemaphore] in
            for fd in [state.epoll, state.wakeRead, state.wakeWrite] where fd >= 0 { close(fd) }
            state.epoll = -1
            state.wakeRead = -1
            state.wakeWrite = -1
            state.stopped = true
            state.descriptors = [:]
            state.timers = [:]
            state.deadlines.removeAll()
            state.posted = []
            defer { state.endWaiters = [] }
            return state.endWaiters
        }
        for waiter in waiters { waiter.signal() }
    }
}
