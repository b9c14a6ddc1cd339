#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallEngine

/// One `installtop apt …`: the plan from apt, the operator's yes, then the transaction as one
/// job on the usual run (monitor, plain lines or JSON); with `--yes`, `APTResolveOnceRun`.
struct APTSession {
    let request: PackageRequest
    let options: APTOptions
    /// What the transaction will replace when that is known before apt resolves (an undo's
    /// run), to keep ahead of apt's hook with `--yes`; a plan's own changes otherwise.
    var expected: [PackageChange]?
    /// Where the job runs when the caller has already asked (`APTEngineRoute.find`), so that an
    /// engine that does not answer is waited for, and named, once; `nil` asks.
    var route: APTEngineRoute?
    /// What an undo leaves as dpkg has it (`APTUndoPreparation.leaves`), added to the job's name
    /// so that the monitor's plan dialog says it beside the plan.
    var leaves: [String] = []
    /// The job is commit-confirmed (`--confirm`): a version that cannot be kept stops it before
    /// dpkg changes anything (`APTVersionKeeping.isArmed`).
    var armed = false

    func run() -> ExitStatus {
        // Absolute, so the paths read under it (dpkg's database, the reboot list) never depend on the working directory.
        let chroot = options.chroot.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if case .engine(let client, let engine) = route ?? APTEngineRoute.find(for: options, jobName: APTJobKind.summary(of: request)) {
            return APTEngineJob(request: request, options: options, client: client, engine: engine).run()
        }
        let job = PackageJob(request: request, aptConfig: options.aptConfig, chroot: chroot)
        // With --yes the plan is not shown: apt's own hook gives it during the transaction.
        if options.yes { return APTResolveOnceRun(job: job, options: options, armed: armed, expected: expected).run() }
        let plan: APTPlan
        PlanningNotice.say(APTJobKind.summary(of: request))
        do {
            plan = try APTPlanner.plan(job)
        } catch {
            StandardOutput.stderr.line("installtop: \(APTJobKind.summary(of: request)): nothing was run:\n\(error.message)"
                + (request.undoneRun.map { APTUndoRequest.interruptedAdvice(error.message, run: $0) } ?? ""))
            return .invalidUsage
        }
        if plan.isEmpty {
            StandardOutput.stdout.line(APTPlanText.nothingToDo(for: request))
            return .succeeded
        }
        let mode = OutputMode(options: options.run)
        if !options.yes && mode != .monitor {
            // Nobody at a terminal to ask: say what would run, and run nothing (apt-get's "Abort.").
            StandardOutput.stdout.line(APTPlanText.text(of: plan))
            StandardOutput.stderr.line("installtop: not run: confirm with --yes (there is no terminal to ask on)")
            return .failed
        }
        // The versions the plan replaces are kept for undo before dpkg touches them (rule 33).
        let keeper = HistoryVersionKeeper.open(options.run.history, jobName: APTJobKind.summary(of: request), operation: request.operation,
                                               armed: armed)
        let runnable = RunnableJob(
            name: "\(APTJobKind.summary(of: request)) · \(plan.summary)" + leaves.map { " · leaves \($0)" }.joined(),
            operation: request.operation, updates: plan.updates,
            driver: APTDriver(plan: plan, keeper: keeper), needsConfirmation: !options.yes, runSlot: keeper?.runSlot,
            undoOf: request.undoneRun)
        let status = RunSession(jobs: [runnable], options: options.run,
                                engineRoot: EngineRoot(configFile: options.aptConfig, chroot: chroot)).run()
        keeper?.prune()
        return status
    }
}
