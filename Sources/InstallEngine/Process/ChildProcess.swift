import CPosixSpawn
import Glibc
import Synchronization

/// The handle on one child started by `ProcessBackend.startChild` (the per-update backend's
/// `start` returns one as its `RunningUpdate`; drivers hold one for their tool's process).
///
/// It owns the only right to signal and to reap the child: one mutex orders `terminate()`,
/// `kill()`, `interrupt()`, `killTree()` and the poller's reaping, so no signal is ever sent to
/// the child or its process group after the child was reaped (its pid could then belong to
/// someone else).
public final class ChildProcess: RunningUpdate {
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
        /// Our end of the child's control channel (fd 4), -1 when none or closed.
        var controlWrite: Int32 = -1
        var terminateSent = false
        var killSent = false
    }

    /// The child's pid, which is also its process group id; 0 when nothing was started.
    private let processGroup: pid_t
    private let state: Mutex<State>
    private let slot: OutcomeSlot
    /// See `readPromptly(_:)`; read by the poller after each read of a paced child.
    private let prompt = Atomic<Bool>(false)

    /// A handle on a running child that leads its own process group.
    init(processGroup: pid_t, controlWrite: Int32 = -1) {
        self.processGroup = processGroup
        state = Mutex(State(reaped: false, controlWrite: controlWrite))
        slot = OutcomeSlot()
    }

    deinit {
        let control = state.withLock { $0.controlWrite }
        if control >= 0 { close(control) }
    }

    /// A handle on a command that never started: its outcome is already known.
    init(finishedWith outcome: UpdateRunOutcome) {
        processGroup = 0
        state = Mutex(State(reaped: true))
        slot = OutcomeSlot(outcome)
    }

    // MARK: - RunningUpdate

    public func terminate() { signalGroup(SIGTERM, unlessAlready: \.terminateSent) }

    public func kill() { signalGroup(SIGKILL, unlessAlready: \.killSent) }

    public var outcome: UpdateRunOutcome {
        get async { await slot.outcome }
    }

    /// Calls `handler` with the outcome on the poller's thread as it settles (after the last
    /// line was handed on), or at once when it has.
    public func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        slot.whenSettled(handler)
    }

    // MARK: - Reading

    /// While on, a paced child (`ChildSinks.afterReadsInterval`) is read as soon as it writes,
    /// as a flooding one is: for a child that waits for an answer to what it wrote (apt's plan
    /// hook waits for `go` before dpkg starts), where a pause of the interval would be a pause
    /// of the child. A pipe paused when it is turned on is read again at its interval's end:
    /// to be prompt from the first read, start the child with `ChildSinks.promptlyAtFirst`.
    public func readPromptly(_ on: Bool) {
        prompt.store(on, ordering: .relaxed)
    }

    /// Whether `readPromptly(true)` is in force.
    var readsPromptly: Bool { prompt.load(ordering: .relaxed) }

    // MARK: - Signals and control

    /// Writes `line` and a newline to the child's control channel (fd 4). Returns false when
    /// the child has none, is gone, or has not read what came before (the pipe is full: the
    /// line is dropped rather than waited for).
    @discardableResult
    public func sendControl(_ line: String) -> Bool {
        state.withLock { state in
            guard !state.reaped, state.controlWrite >= 0 else { return false }
            let bytes = Array((line + "\n").utf8)
            let written = bytes.withUnsafeBytes { write(state.controlWrite, $0.baseAddress, $0.count) }
            return written == bytes.count
        }
    }

    /// Sends SIGINT to the child alone, not its group: apt-get's request to stop after the
    /// package it is on (Documentation/PACKAGE-FACTS.md), which must not reach the methods or scripts it runs.
    /// Does nothing once the child was reaped or killed.
    public func interrupt() {
        state.withLock { state in
            guard !state.reaped, !state.killSent else { return }
            _ = Glibc.kill(processGroup, SIGINT)
        }
    }

    /// Sends SIGINT to the child's whole process group, as Ctrl-C would: a driver such as
    /// ansible-playbook stops scheduling and its workers end. Does nothing once reaped or killed.
    public func interruptGroup() {
        state.withLock { state in
            guard !state.reaped, !state.killSent else { return }
            _ = Glibc.kill(-processGroup, SIGINT)
        }
    }

    /// Kills the child, its process group and every descendant wherever its session or group
    /// (dpkg runs on a pty in a session of its own, and its maintainer scripts under it). The
    /// descendants are stopped first, so none can fork past the kill, then all are killed.
    /// Returns the descendants' process ids and names as they were found (empty once reaped).
    @discardableResult
    public func killTree() -> [ProcessTree.Member] {
        state.withLock { state in
            guard !state.reaped else { return [] }
            let members = ProcessTree.descendants(of: processGroup)
            for member in members { _ = Glibc.kill(member.pid, SIGSTOP) }
            state.killSent = true
            _ = Glibc.kill(-processGroup, SIGKILL)
            for member in members { _ = Glibc.kill(member.pid, SIGKILL) }
            return members
        }
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
            if state.controlWrite >= 0 {
                close(state.controlWrite)
                state.controlWrite = -1
            }
            // When another reaper took the child, its pid may already be reused: signal nothing.
            guard result == processGroup else { return .statusLost }
            _ = Glibc.kill(-processGroup, SIGKILL)
            AdoptedChildren.groupKilled(processGroup)
            return .status(status)
        }
    }

    /// Settles the outcome and wakes every waiter. Called once, after the last report.
    func resolve(_ outcome: UpdateRunOutcome) {
        slot.settle(outcome)
    }
}
