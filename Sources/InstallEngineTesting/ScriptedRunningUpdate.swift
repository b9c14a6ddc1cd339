import Dispatch
import InstallEngine
import Synchronization

/// One update run by `ScriptedBackend`. Its reports are made on the backend's player queue; the
/// outcome is settled only after the last report, so the ordering promise of `RunningUpdate`
/// holds.
final class ScriptedRunningUpdate: RunningUpdate {
    private struct State {
        /// Set by release, terminate or kill: the outcome to end with.
        var stopOutcome: UpdateRunOutcome?
        /// The reports are made and the script ends when stopped: the stop settles the outcome.
        var waitingForStop = false
    }

    private let script: UpdateScript
    private let reporter: any UpdateReporter
    private let state = Mutex(State())
    private let slot = OutcomeSlot()

    private let player: DispatchQueue

    /// - Parameter player: the backend's serial queue, where the script plays.
    init(script: UpdateScript, reporter: any UpdateReporter, player: DispatchQueue) {
        self.script = script
        self.reporter = reporter
        self.player = player
    }

    func begin() {
        player.async { self.play() }
    }

    private func play() {
        for report in script.reports {
            if state.withLock({ $0.stopOutcome != nil }) { break }
            reporter.report(report)
        }
        if script.ending == .immediately {
            slot.settle(state.withLock { $0.stopOutcome } ?? script.outcome)
            return
        }
        let stopped = state.withLock { state -> UpdateRunOutcome? in
            if let outcome = state.stopOutcome { return outcome }
            state.waitingForStop = true
            return nil
        }
        if let stopped { slot.settle(stopped) }
    }

    private func stop(with outcome: UpdateRunOutcome) {
        let settleNow = state.withLock { state -> Bool in
            guard state.stopOutcome == nil else { return false }
            state.stopOutcome = outcome
            return state.waitingForStop
        }
        if settleNow { slot.settle(outcome) }
    }

    func release() { stop(with: script.outcome) }

    func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        slot.whenSettled(handler)
    }

    func terminate() {
        if case .end(let outcome) = script.onTerminate { stop(with: outcome) }
    }

    func kill() { stop(with: .signaled(9)) }

    var outcome: UpdateRunOutcome {
        get async { await slot.outcome }
    }
}
