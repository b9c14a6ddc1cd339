import Glibc
import Synchronization

/// Ends the short commands started under it (`SystemCommand.run(_:environment:cancellation:)`)
/// once it is cancelled: what a computation that may take seconds of apt's time (a pending
/// snapshot's `apt-get -s`) hands to whoever may have to stop it at once (`serve` on SIGTERM).
///
/// Only commands that change nothing belong under it: each is killed with SIGKILL, its whole
/// process group, without a grace. A command started after the cancellation is killed as it
/// starts, so a computation that goes on for a while after `cancel()` runs nothing more to its end.
public final class CommandCancellation: Sendable {
    private struct State {
        var cancelled = false
        var running: Set<pid_t> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { state.withLock(\.cancelled) }

    /// Kills every command running under it, and every one started later. Idempotent.
    public func cancel() {
        let running = state.withLock { state -> Set<pid_t> in
            state.cancelled = true
            return state.running
        }
        for pid in running { Self.kill(pid) }
    }

    /// `pid` (the leader of its own process group) runs under it until `ended(_:)`; killed at
    /// once when the cancellation came first.
    func started(_ pid: pid_t) {
        let cancelled = state.withLock { state -> Bool in
            if !state.cancelled { state.running.insert(pid) }
            return state.cancelled
        }
        if cancelled { Self.kill(pid) }
    }

    /// `pid` is about to be reaped: its number may be reused from now on, so it is never signalled again.
    func ended(_ pid: pid_t) {
        _ = state.withLock { $0.running.remove(pid) }
    }

    private static func kill(_ pid: pid_t) {
        _ = Glibc.kill(-pid, SIGKILL)
    }
}
