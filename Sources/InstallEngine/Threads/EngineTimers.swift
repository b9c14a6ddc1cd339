/// The engine's timers, on the engine's `Reactor` (thread `installtop-poll`, which also reads
/// every child): what is scheduled is called on that thread once its delay has passed. What it
/// calls must be quick and must not block, as every reactor handler: the engine's timers only
/// enqueue an input on their job's executor (`JobInput.timerFired`), a driver's kill grace
/// only sends a signal.
///
/// Deadlines are on the monotonic clock, so a change of the system's time moves none of them.
public final class EngineTimers: Sendable {
    /// The timers of this process.
    public static let shared = EngineTimers(reactor: .shared)

    /// Names one scheduled timer, for `cancel(_:)`.
    public struct Token: Sendable, Hashable {
        fileprivate let timer: Reactor.Timer
    }

    private let reactor: Reactor

    private init(reactor: Reactor) {
        self.reactor = reactor
    }

    /// Calls `fire` on the reactor's thread once `delay` has passed, unless cancelled first.
    @discardableResult
    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> Token {
        Token(timer: reactor.schedule(after: delay, fire))
    }

    /// Forgets the timer; it does not fire unless it is firing already. Never waits, so it may
    /// be called holding any lock.
    public func cancel(_ token: Token) {
        reactor.cancel(token.timer)
    }
}
