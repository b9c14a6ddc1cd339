import Dispatch
import InstallEngine
import Synchronization

/// One update run by `ScriptedBackend`. Its reports are made on a Dispatch queue of their own;
/// the outcome is settled only after the last report, so the ordering promise of
/// `RunningUpdate` holds.
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

    init(script: UpdateScript, reporter: any UpdateReporter) {
        self.script = script
        self.reporter = reporter
    }

    func begin() {
        // Not a task: tests elsewhere in the run that block in a synchronous call (an apt-get
        // of 40 packages) can fill Swift's cooperative pool, two threads on two cores, and a
        // script that never plays looks like an engine that lost its reports.
        DispatchQueue(label: "installtop.scripted-update").async { self.play() }
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

    func terminate() {
        if case .end(let outcome) = script.onTerminate { stop(with: outcome) }
    }

    func kill() { stop(with: .signaled(9)) }

    var outcome: UpdateRunOutcome {
        get async { await slot.outcome }
    }
}
