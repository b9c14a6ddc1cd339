import Dispatch
import Synchronization

/// Runs a write when asked, at most once per `interval`, on a thread of its own: a request
/// while a write is already due is part of it, and one that comes within `interval` of the
/// last write is carried out when the interval has passed. The write reads the state when it
/// runs, so the last state asked for is always written, however fast the requests come.
public final class ThrottledWrites: Sendable {
    private struct State {
        var lastWrite: ContinuousClock.Instant?
        var due = false
        var stopped = false
    }

    private let interval: Duration
    private let write: @Sendable () -> Void
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "installtop.metrics-textfile")

    /// - Parameters:
    ///   - interval: the least time between two writes.
    ///   - write: writes the state as it is when called; never two at once.
    public init(interval: Duration = .seconds(1), write: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.write = write
    }

    /// Asks for a write: at once when none ran within `interval`, else once it has passed.
    /// Returns at once; nothing happens after `stop()`.
    public func request() {
        let delay = state.withLock { state -> Duration? in
            guard !state.due, !state.stopped else { return nil }
            state.due = true
            guard let last = state.lastWrite else { return .zero }
            return max(.zero, interval - (ContinuousClock.now - last))
        }
        guard let delay else { return }
        let (seconds, attoseconds) = delay.components
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))) { [self] in
            let go = state.withLock { state -> Bool in
                state.due = false
                state.lastWrite = .now
                return !state.stopped
            }
            if go { write() }
        }
    }

    /// Writes the state once more, now, after any write under way, and takes no request after:
    /// what an engine that stops leaves behind is its last state.
    public func stop() {
        state.withLock { $0.stopped = true }
        queue.sync { write() }
    }
}
