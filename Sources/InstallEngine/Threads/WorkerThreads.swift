import DequeModule
// DispatchSemaphore only: a futex on Linux; no Dispatch thread is ever started here.
import Dispatch
import Glibc
import Synchronization

/// A few threads of the engine's own that take closures from one first-in-first-out list and
/// run each to its end: the engine's fixed pool (`engine`), or the one thread of a queue whose
/// items may block (`SerialWorkQueue.Runner.ownThread`).
///
/// Threads start when work comes and none is free, up to `limit`; with an `idleLifetime`, a
/// thread that found nothing to do for that long ends (the next `submit` starts another).
/// Nothing here grows with the work: a thousand jobs' executors share the engine's pool,
/// where Dispatch's overcommitting queues started a thread whenever none was free (260 threads
/// for 1,000 concurrent `sleep 1` updates).
final class WorkerThreads: Sendable {
    /// The engine's pool: every job's executor, every driver's and session's report queue and
    /// the engine's tasks (`EngineTaskExecutor`) run here. As many threads as the machine has
    /// cores, at least 2 and at most 4, started as work comes and never ended. Nothing that
    /// may block runs here: subscribers and callbacks run on their queue's own thread, and a
    /// driver runs its tool's blocking commands on threads of its own.
    static let engine = WorkerThreads(name: "installtop-eng", numbered: true, limit: enginePoolSize, idleLifetime: nil)

    /// `max(2, cores)`, at most 4.
    static var enginePoolSize: Int {
        min(4, max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    }

    private struct State {
        var pending: Deque<@Sendable () -> Void> = []
        var threads = 0
        /// Threads waiting for work that no `submit` has woken yet.
        var idle = 0
        /// Threads started so far, for their names.
        var started = 0
        /// Threads that could not be started (no threads left in the system for a moment).
        var startFailures = 0

        /// A thread to start for the work that waits, if none is free and the limit allows:
        /// its number, counted as running from now.
        mutating func threadWanted(limit: Int) -> Int? {
            guard !pending.isEmpty, idle == 0, threads < limit else { return nil }
            threads += 1
            started += 1
            return started
        }
    }

    private enum Wake {
        case none
        case waiting
        case newThread(number: Int)
    }

    private let name: String
    private let numbered: Bool
    private let limit: Int
    private let idleLifetime: Duration?
    private let state = Mutex(State())
    /// Set while a thread could not be started: only then does a thread that ends an item look
    /// for work waiting for one (an atomic load, so the engine's pool pays no lock for it).
    private let missingThreads = Atomic<Bool>(false)
    /// Posted once for each waiting thread a `submit` claims (`State.idle`).
    private let wake = DispatchSemaphore(value: 0)
    /// How a thread is started (`EngineThread.start`; tests make it fail).
    private let startsThread: @Sendable (String, @escaping @Sendable () -> Void) -> SystemError?

    /// - Parameters:
    ///   - name: the threads' name (at most 15 characters are shown); with `numbered`, each
    ///     thread's number is appended (`installtop-eng1`).
    ///   - limit: the most threads at once (at least 1).
    ///   - idleLifetime: how long a thread waits for work before it ends; `nil`: forever.
    ///   - startsThread: starts a thread (`EngineThread.start`; tests make it fail).
    init(name: String, numbered: Bool = false, limit: Int, idleLifetime: Duration?,
         startsThread: @escaping @Sendable (String, @escaping @Sendable () -> Void) -> SystemError? = { EngineThread.start(named: $0, $1) }) {
        self.name = name
        self.numbered = numbered
        self.limit = max(1, limit)
        self.idleLifetime = idleLifetime
        self.startsThread = startsThread
    }

    /// Runs `work` on one of the threads, after everything submitted before it has been taken;
    /// never on the calling thread. Returns at once.
    func submit(_ work: @escaping @Sendable () -> Void) {
        let wakeUp = state.withLock { state -> Wake in
            state.pending.append(work)
            if state.idle > 0 {
                state.idle -= 1
                return .waiting
            }
            return state.threadWanted(limit: limit).map { .newThread(number: $0) } ?? .none
        }
        switch wakeUp {
        case .none: break
        case .waiting: wake.signal()
        case .newThread(let number): startThread(number)
        }
    }

    /// Whether every thread started waits for work and none is queued: a `submit` now would
    /// have to wake one (or start one).
    var isAsleep: Bool {
        state.withLock { $0.pending.isEmpty && $0.idle == $0.threads }
    }

    /// The threads running now, and how many could not be started so far (for tests).
    var counts: (threads: Int, startFailures: Int) {
        state.withLock { ($0.threads, $0.startFailures) }
    }

    private func startThread(_ number: Int) {
        guard let error = startsThread(numbered ? "\(name)\(number)" : name, { [self] in run() }) else { return }
        let none = state.withLock { state -> Bool in
            state.threads -= 1
            state.startFailures += 1
            return state.threads == 0
        }
        missingThreads.store(true, ordering: .relaxed)
        // The others take the work; with none at all it would wait forever.
        precondition(!none, "installtop cannot start its \(name) thread: \(error.description)")
    }

    private func run() {
        while true {
            let work = state.withLock { state -> (@Sendable () -> Void)? in
                if let next = state.pending.popFirst() { return next }
                state.idle += 1
                return nil
            }
            if let work {
                work()
                // A thread that could not be started when its work came (the system had none
                // left for a moment) is started now, if work still waits for one.
                if missingThreads.load(ordering: .relaxed), let number = state.withLock({ state -> Int? in
                    let number = state.threadWanted(limit: limit)
                    // Back to the limit, or nothing waits: no more looking until a start fails again.
                    if number == nil || state.threads == limit { missingThreads.store(false, ordering: .relaxed) }
                    return number
                }) {
                    startThread(number)
                }
                continue
            }
            guard let idleLifetime else {
                wake.wait()
                continue
            }
            let deadline = DispatchTime.now() + .nanoseconds(Int(idleLifetime.nanoseconds))
            guard wake.wait(timeout: deadline) == .timedOut else { continue }
            let ends = state.withLock { state -> Bool? in
                // Every waiter was claimed, this one too: its post is on its way.
                guard state.idle > 0 else { return nil }
                state.idle -= 1
                guard state.pending.isEmpty else { return false }
                state.threads -= 1
                return true
            }
            switch ends {
            case nil: wake.wait()
            case true?: return
            case false?: continue
            }
        }
    }
}
