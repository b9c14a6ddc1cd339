import CPosixSpawn
import Glibc
import Synchronization

/// The handle on one child started by `ProcessBackend`.
///
/// It owns the only right to signal and to reap the child: one mutex orders `terminate()`,
/// `kill()` and the poller's reaping, so no signal is ever sent to the process group
/// after the child was reaped (its pid could then belong to someone else).
final class ProcessRunningUpdate: RunningUpdate {
    /// What `reap` learned about the child.
    enum ReapResult {
        /// The child's wait status.
        case status(Int32)
        /// The child is gone but its status was taken by another reaper (`waitpid(-1)` or
        /// `SIGCHLD` ignored elsewhere in this process).
        case statusLost
    }

    private struct State {
        var reaped: Bool
        var terminateSent = false
        var killSent = false
    }

    /// The child's pid, which is also its process group id; 0 when nothing was started.
    private let processGroup: pid_t
    private let state: Mutex<State>
    private let slot: OutcomeSlot

    /// A handle on a running child that leads its own process group.
    init(processGroup: pid_t) {
        self.processGroup = processGroup
        state = Mutex(State(reaped: false))
        slot = OutcomeSlot()
    }

    /// A handle on a command that never started: its outcome is already known.
    init(finishedWith outcome: UpdateRunOutcome) {
        processGroup = 0
        state = Mutex(State(reaped: true))
        slot = OutcomeSlot(outcome)
    }

    // MARK: - RunningUpdate

    func terminate() { signalGroup(SIGTERM, unlessAlready: \.terminateSent) }

    func kill() { signalGroup(SIGKILL, unlessAlready: \.killSent) }

    var outcome: UpdateRunOutcome {
        get async { await slot.outcome }
    }

    /// A SIGTERM after a SIGKILL would change nothing, so it is skipped as well.
    private func signalGroup(_ signal: Int32, unlessAlready sent: WritableKeyPath<State, Bool>) {
        state.withLock { state in
            guard !state.reaped, !state[keyPath: sent], !state.killSent else { return }
            state[keyPath: sent] = true
            _ = Glibc.kill(-processGroup, signal)
        }
    }

    // MARK: - For the poller

    /// Reaps the child if it has exited (`blocking` waits for it), then SIGKILLs what is left of
    /// its process group, atomically with the reap. Returns `nil` when a non-blocking call
    /// found the child still running. Called by the poller only, never twice after
    /// a result.
    func reap(blocking: Bool) -> ReapResult? {
        state.withLock { state in
            guard !state.reaped else { return .statusLost }
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(processGroup, &status, blocking ? 0 : WNOHANG)
            } while result == -1 && cps_errno() == EINTR
            if result == 0 { return nil }
            state.reaped = true
            cps_group_unregister(processGroup)
            // When another reaper took the child, its pid may already be reused: signal nothing.
            guard result == processGroup else { return .statusLost }
            _ = Glibc.kill(-processGroup, SIGKILL)
            return .status(status)
        }
    }

    /// Settles the outcome and wakes every waiter. Called once, after the last report.
    func resolve(_ outcome: UpdateRunOutcome) {
        slot.settle(outcome)
    }
}
