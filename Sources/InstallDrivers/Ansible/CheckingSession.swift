import InstallEngine
import Synchronization

/// The running side of a `CheckedPlaybookDriver`: while the playbook is checked there is no
/// process, so a stop or kill asked meanwhile is kept (a playbook stopped before it started
/// never starts) and passed on to the playbook's session once it runs.
final class CheckingSession: RunningSession {
    private enum Phase {
        case checking
        case running(any RunningSession)
        /// The check refused the playbook (the message), or a stop came first (`nil`).
        case over(String?)
    }

    private struct State {
        var phase = Phase.checking
        var stopRequested = false
        var killRequested = false
        /// Who waits for the end while the check runs (`whenEnded`).
        var endHandlers: [@Sendable (UpdateRunOutcome) -> Void] = []
    }

    private let state = Mutex(State())

    /// The check passed: `start` starts the playbook, unless a stop came meanwhile.
    func checked(_ start: () -> any RunningSession) {
        guard !state.withLock({ $0.stopRequested || $0.killRequested }) else {
            settle(.over(nil))
            return
        }
        let running = start()
        settle(.running(running))
        // A stop asked while the playbook was starting found no session to pass it to.
        let (stop, kill) = state.withLock { ($0.stopRequested, $0.killRequested) }
        if kill {
            running.kill()
        } else if stop {
            running.stopAll()
        }
    }

    /// The check refused the playbook, saying `message`.
    func refused(_ message: String) {
        settle(.over(message))
    }

    private func settle(_ phase: Phase) {
        let waiting = state.withLock { state in
            state.phase = phase
            defer { state.endHandlers = [] }
            return state.endHandlers
        }
        for handler in waiting { Self.pass(handler, to: phase) }
    }

    /// `handler` hears the end of what `phase` is: the playbook's session's end, or at once
    /// the outcome of a refusal or of a stop before the playbook started.
    private static func pass(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void, to phase: Phase) {
        switch phase {
        case .running(let session):
            session.whenEnded(handler)
        case .over(let refusal?):
            handler(.failedToStart("ansible-playbook refused the playbook: \(refusal)"))
        case .over(nil), .checking:
            handler(.exited(0))
        }
    }

    func stop(job: String) {
        running { $0.stop(job: job) }
    }

    func stopAll() {
        state.withLock { $0.stopRequested = true }
        running { $0.stopAll() }
    }

    func kill() {
        state.withLock { $0.killRequested = true }
        running { $0.kill() }
    }

    /// Calls `body` with the playbook's session when it runs.
    private func running(_ body: (any RunningSession) -> Void) {
        let phase = state.withLock { $0.phase }
        if case .running(let session) = phase { body(session) }
    }

    var outcome: UpdateRunOutcome {
        get async {
            await withCheckedContinuation { continuation in
                whenEnded { continuation.resume(returning: $0) }
            }
        }
    }

    /// `handler` runs once the check refused the playbook or was stopped, or, when the playbook
    /// ran, where its session ends: no task waits for the end.
    func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        let settled = state.withLock { state -> Phase? in
            guard case .checking = state.phase else { return state.phase }
            state.endHandlers.append(handler)
            return nil
        }
        if let settled { Self.pass(handler, to: settled) }
    }

    var recentOutput: [String] {
        switch state.withLock({ $0.phase }) {
        // A refusal's message is in the outcome already.
        case .running(let session): return session.recentOutput
        case .over, .checking: return []
        }
    }
}
