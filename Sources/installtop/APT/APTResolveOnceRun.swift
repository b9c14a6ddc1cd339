#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallEngine

/// `installtop apt … --yes`: the plan is not shown for a yes, so apt resolves once. The
/// transaction starts at once with `APTHookPlan`'s hook; its downloads are said on stderr; the
/// job is made from the hook's plan, before dpkg has changed anything, and runs on the usual
/// run (monitor, plain lines or JSON). When apt ends before its hook, the operator hears what
/// the plan would have said: nothing to do, or apt's refusal in its words (exit 2).
struct APTResolveOnceRun {
    let job: PackageJob
    let options: APTOptions
    /// The job is commit-confirmed: a version not kept stops it before dpkg (`APTSession.armed`).
    var armed = false
    /// What apt is expected to replace, known before it resolves (an undo's run): kept ahead of
    /// its hook. `nil` keeps everything at the hook.
    var expected: [PackageChange]?

    func run() -> ExitStatus {
        let request = job.request
        let environment: APTEnvironment
        do {
            environment = try APTPlanner.environment(of: job)
        } catch {
            return refused(error)
        }
        let lines = APTDownloadLines()
        PlanningNotice.say(APTJobKind.summary(of: request))
        // The versions apt's plan replaces are kept for undo between its hook and dpkg (rule 33).
        let keeper = HistoryVersionKeeper.open(options.run.history, jobName: APTJobKind.summary(of: request), operation: request.operation,
                                               armed: armed)
        // Until the plan comes nothing has changed: a signal stops apt, safely. After it, until
        // the run session handles signals itself (it opens the history, and the monitor its
        // terminal, first), a signal still stops apt at its next safe point: with the default
        // disposition it would end installtop while apt runs dpkg, and apt, writing to a pipe
        // nobody reads, could die in the middle of a package. The relay comes before apt does.
        // Once the run takes over, a signal read here late is handed on to it.
        let earlier = EarlierSignals()
        let stopping = StopRequest<APTHookTransaction> { $0.stop() }
        let relay = SignalRelay { signal, count in
            guard !earlier.take(signal) else { return }
            let transaction = stopping.ask()
            guard count == 1 else { return }
            StandardOutput.stderr.line("installtop: \(APTJobKind.summary(of: request)): " + (transaction?.planCame == true
                ? "stopping apt at its next safe point" : "stopping apt before it changes anything"))
        }
        defer { relay.cancel() }
        let transaction = APTHookTransaction.start(job, environment: environment, keeper: keeper, planned: expected) { lines.say($0) }
        stopping.started(transaction)
        let beginning = transaction.waitForBeginning()
        lines.finish()
        switch beginning {
        case .ended(let outcome, let stdout, let stderr):
            if transaction.stopRequested {
                StandardOutput.stderr.line("installtop: \(APTJobKind.summary(of: request)): stopped before anything was changed (apt \(outcome.summary))")
                return .aborted
            }
            if case .exited(0) = outcome {
                StandardOutput.stdout.line(APTPlanText.nothingToDo(for: request))
                return .succeeded
            }
            return refused(APTPlanner.refusal(of: job, outcome: outcome, stdout: stdout, stderr: stderr))
        case .plan(let changes):
            let plan = APTPlan(job: job, environment: environment, changes: changes, downloads: [])
            let runnable = RunnableJob(
                name: "\(APTJobKind.summary(of: request)) · \(plan.summary)", operation: request.operation, updates: plan.updates,
                driver: APTDriver(plan: plan, running: transaction, keeper: keeper), needsConfirmation: false, runSlot: keeper?.runSlot,
                undoOf: request.undoneRun)
            // Signals taken here, while the run opens the history, are its own: apt's stop is
            // then the job's abort, and a second signal forces it.
            let status = RunSession(jobs: [runnable], options: options.run, earlierSignals: earlier,
                                    engineRoot: EngineRoot(configFile: options.aptConfig, chroot: job.chroot)).run()
            // apt has ended: a signal from now on has nothing to stop, and says nothing.
            _ = earlier.takeOver { _ in }
            keeper?.prune()
            return status
        }
    }

    private func refused(_ error: APTPlanError) -> ExitStatus {
        StandardOutput.stderr.line("installtop: \(APTJobKind.summary(of: job.request)): nothing was run:\n\(error.message)"
            + (job.request.undoneRun.map { APTUndoRequest.interruptedAdvice(error.message, run: $0) } ?? ""))
        return .invalidUsage
    }
}
