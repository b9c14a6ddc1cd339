// DispatchSemaphore only: a futex on Linux; no Dispatch thread is ever started here.
import Dispatch
import Synchronization

/// The engine's one timer facility: a thread of its own (`installtop-timer`, started with the
/// first timer and never ended) that sleeps until the nearest deadline and then calls what was
/// scheduled for it. What it calls must be quick and must not block: the engine's timers only
/// enqueue an input on their job's executor (`JobInput.timerFired`), a driver's kill grace
/// only sends a signal.
///
/// Deadlines are on the monotonic clock, so a change of the system's time moves none of them.
public final class EngineTimers: Sendable {
    /// The timers of this process.
    public static let shared = EngineTimers()

    /// Names one scheduled timer, for `cancel(_:)`.
    public struct Token: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        var deadline: ContinuousClock.Instant
        var fire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var lastID: UInt64 = 0
        var threadStarted = false
    }

    private let state = Mutex(State())
    /// Posted when a timer is scheduled, so the thread looks at the deadlines again.
    private let changed = DispatchSemaphore(value: 0)

    private init() {}

    /// Calls `fire` on the timer thread once `delay` has passed, unless cancelled first.
    @discardableResult
    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> Token {
        let deadline = ContinuousClock.now + delay
        let (id, start) = state.withLock { state -> (UInt64, Bool) in
            state.lastID += 1
            state.entries[state.lastID] = Entry(deadline: deadline, fire: fire)
            defer { state.threadStarted = true }
            return (state.lastID, !state.threadStarted)
        }
        if start {
            if let error = EngineThread.start(named: "installtop-timer", { [self] in run() }) {
                preconditionFailure("installtop cannot start its timer thread: \(error.description)")
            }
        } else {
            changed.signal()
        }
        return Token(id: id)
    }

    /// Forgets the timer; it does not fire unless it is firing already.
    public func cancel(_ token: Token) {
        _ = state.withLock { $0.entries.removeValue(forKey: token.id) }
    }

    private func run() -> Never {
        while true {
            let now = ContinuousClock.now
            let (due, next) = state.withLock { state -> ([Entry], ContinuousClock.Instant?) in
                var dueIDs: [UInt64] = []
                var next: ContinuousClock.Instant?
                for (id, entry) in state.entries {
                    if entry.deadline <= now {
                        dueIDs.append(id)
                    } else if next.map({ entry.deadline < $0 }) ?? true {
                        next = entry.deadline
                    }
                }
                return (dueIDs.compactMap { state.entries.removeValue(forKey: $0) }, next)
            }
            for entry in due.sorted(by: { $0.deadline < $1.deadline }) { entry.fire() }
            guard due.isEmpty else { continue }
            if let next {
                let wait = now.duration(to: next)
                _ = changed.wait(timeout: .now() + .nanoseconds(Int(wait.nanoseconds)))
            } else {
                changed.wait()
            }
        }
    }
}
