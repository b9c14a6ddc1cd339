#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallEngine

/// One `installtop dnf …`: the plan from dnf, the operator's yes, then the transaction as one
/// job on the usual run (monitor, plain lines or JSON); with `--yes`, `DNFResolveOnceRun`.
struct DNFSession {
    let request: DNFRequest
    let options: DNFOptions
    /// The history's run this session undoes (`installtop dnf undo`); `nil` otherwise.
    var undoOf: Int? = nil

    func run() -> ExitStatus {
        let name = request.summary
        // Absolute, so the helper and rpm never depend on the working directory.
        let root = options.installroot.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        guard geteuid() == 0 else {
            // dnf's lock, its caches and rpm's database are root's, for a plan too.
            StandardOutput.stderr.line("installtop: \(name): nothing was run:\n" + "dnf jobs need root" + DNFPlanner.hint("permission"))
            return .invalidUsage
        }
        let job = DNFJob(request: request, installRoot: root, releaseVersion: options.releasever)
        let folder = DNFKindRegistration.helperFolder()
        defer { folder.remove() }
        let helper: DNFHelper
        do {
            try DNFPlanner.checkRoot(of: job)
            helper = try folder.helper()
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run:\n\(error)")
            return .invalidUsage
        }
        // The versions the transaction takes away are kept for undo unless --no-history.
        let keeper = HistoryDNFKeeper.open(options.run.history, jobName: job.request.summary, operation: job.request.operation)
        // With --yes the plan is not shown: the helper that runs the transaction says it.
        if options.yes { return DNFResolveOnceRun(job: job, helper: helper, keeper: keeper, options: options, undoOf: undoOf).run() }
        let plan: DNFPlan
        PlanningNotice.say(name)
        do {
            plan = try DNFPlanner.plan(job, helper: helper)
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run:\n\(error)")
            return .invalidUsage
        }
        if plan.isEmpty {
            StandardOutput.stdout.line(DNFPlanText.nothingToDo(for: request))
            return .succeeded
        }
        if OutputMode(options: options.run) != .monitor {
            // Nobody at a terminal to ask: say what would run, and run nothing (dnf's "Operation aborted.").
            StandardOutput.stdout.line(DNFPlanText.text(of: plan))
            StandardOutput.stderr.line("installtop: not run: confirm with --yes (there is no terminal to ask on)")
            return .failed
        }
        let runnable = RunnableJob(name: "\(name) · \(plan.summary)", operation: request.operation, updates: plan.updates,
                                   driver: DNFDriver(plan: plan, helper: helper, keeper: keeper), needsConfirmation: true,
                                   runSlot: keeper?.runSlot, undoOf: undoOf)
        return RunSession(jobs: [runnable], options: options.run).run()
    }
}
