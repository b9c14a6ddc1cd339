import InstallEngine
import Synchronization

/// One update run by `ScriptedBackend`. Its reports are made on a task of their own; the
/// outcome is settled only after the last report, so the ordering promise of `RunningUpdate`
/// holds.
final class ScriptedRunningUpdate: RunningUpdate {
    private struct State {
        /// Set by release, terminate or kill: the outcome to end with.
        var stopOutcome: UpdateRunOutcome?
        var resumeWhenStopped: CheckedContinuation<Void, Never>?
    }

    private let script: UpdateScript
    private let reporter: any UpdateReporter
    private let state = Mutex(State())
    private let slot = OutcomeSlot()

    init(script: UpdateScript, reporter: any UpdateReporter) {
        self.script = script
        self.reporter = reporter
    }

    func begin() {
        Task.detached { await self.play() }
    }

    private func play() async {
        for report in script.reports {
            if state.withLock({ $0.stopOutcome != nil }) { break }
            reporter.report(report)
        }
        let final: UpdateRunOutcome
        if script.ending == .immediately, let early = state.withLock({ $0.stopOutcome }) {
            final = early
        } else if script.ending == .immediately {
            final = script.outcome
        } else {
            await withCheckedContinuation { continuation in
                let stopped = state.withLock { state -> Bool in
                    if state.stopOutcome != nil { return true }
                    state.resumeWhenStopped = continuation
                    return false
                }
                if stopped { continuation.resume() }
            }
            final = state.withLock { $0.stopOutcome! }
        }
        slot.settle(final)
    }

    private func stop(with outcome: UpdateRunOutcome) {
        let resume = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.stopOutcome == nil else { return nil }
            state.stopOutcome = outcome
            defer { state.resumeWhenStopped = nil }
            return state.resumeWhenStopped
        }
        resume?.resume()
    }

    func release() { stop(with: script.outcome) }

    func terminate() {
        if case .end(let outcome) = script.onTerminate { stop(with: outcome) }
    }

    func kill() { stop(with: .signaled(9)) }

    var outcome: UpdateRunOutcome {
        get async { await slot.outcome }
    }
}
