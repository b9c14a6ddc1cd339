import Glibc
import InstallDrivers
import InstallEngine

/// `installtop dnf … --yes`: the plan is not shown for a yes, so dnf resolves once. The helper
/// starts in `run` mode at once; the job is made from the plan it says before it fetches
/// anything, and runs on the usual run (monitor, plain lines or JSON). When the helper ends
/// before its plan, the operator hears what the plan would have said: nothing to do, or dnf's
/// refusal in its words (exit 2).
struct DNFResolveOnceRun {
    let job: DNFJob
    let helper: DNFHelper
    /// Keeps what the transaction takes away, for undo; `nil` with `--no-history`.
    let keeper: HistoryDNFKeeper?
    let options: DNFOptions
    var undoOf: Int? = nil

    func run() -> ExitStatus {
        let name = job.request.summary
        PlanningNotice.say(name)
        // Until the plan comes nothing has changed: a signal stops the helper at once. After it,
        // until the run session handles signals itself, a signal still stops it (before rpm's
        // transaction at once, during it at its end): with the default disposition it would end
        // installtop while the helper goes on, unwatched. The relay comes before the helper
        // does. Once the run takes over, a signal read here late is handed on to it.
        let earlier = EarlierSignals()
        let stopping = StopRequest<DNFHelperTransaction> { $0.stop() }
        let relay = SignalRelay { signal, count in
            guard !earlier.take(signal) else { return }
            stopping.ask()
            guard count == 1 else { return }
            StandardOutput.stderr.line("installtop: \(name): stopping dnf before it changes anything")
        }
        defer { relay.cancel() }
        let transaction = DNFHelperTransaction.start(job, helper: helper, keeper: keeper)
        stopping.started(transaction)
        switch transaction.waitForBeginning() {
        case .ended(let outcome, let refusal, let stderr):
            keeper?.discard()
            if transaction.stopRequested || outcome == .exited(3) {
                StandardOutput.stderr.line("installtop: \(name): stopped before anything was changed (the dnf helper \(outcome.summary))")
                return .aborted
            }
            let message = refusal?.message ?? (stderr.isEmpty ? "the dnf helper \(outcome.summary)" : stderr)
            StandardOutput.stderr.line("installtop: \(name): nothing was run:\n\(message)")
            return .invalidUsage
        case .plan(let plan):
            if plan.isEmpty {
                keeper?.discard()
                StandardOutput.stdout.line(DNFPlanText.nothingToDo(for: job.request))
                return .succeeded
            }
            let runnable = RunnableJob(name: "\(name) · \(plan.summary)", operation: job.request.operation, updates: plan.updates,
                                       driver: DNFDriver(plan: plan, helper: helper, running: transaction, keeper: keeper),
                                       needsConfirmation: false, runSlot: keeper?.runSlot, undoOf: undoOf)
            // Signals taken here, while the run opens the history, are its own.
            let status = RunSession(jobs: [runnable], options: options.run, earlierSignals: earlier).run()
            // The helper has ended: a signal from now on has nothing to stop, and says nothing.
            _ = earlier.takeOver { _ in }
            return status
        }
    }
}
