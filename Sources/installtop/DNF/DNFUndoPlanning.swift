import InstallDrivers
import InstallEngine
import InstallHistory

/// Plans the undo of a dnf job run for `UndoQueuing` (`u` in a monitor's history view). The
/// job is the one `installtop dnf undo` runs (an uninstall job with `undoOf`, in the root the
/// run recorded, what it takes away kept in turn). The helper's folder goes when the job ends.
enum DNFUndoPlanning {
    /// The undo of `run` in the root it recorded.
    /// - Throws: `UndoRefusal` (nothing planned, nothing left behind): what `dnf undo`
    ///   refuses, or dnf's refusal of the plan.
    static func plan(undoing run: JobRun, history: HistoryOptions) throws(UndoRefusal) -> PlannedUndo {
        let job = try DNFUndoRequest.job(undoing: run, named: nil)
        let folder = DNFKindRegistration.helperFolder()
        let plan: DNFPlan
        let helper: DNFHelper
        do {
            helper = try folder.helper()
            plan = try DNFPlanner.plan(job, helper: helper)
        } catch {
            folder.remove()
            throw UndoRefusal(message: "dnf cannot plan the undo of run \(run.id): \(error)")
        }
        guard !plan.isEmpty else {
            folder.remove()
            throw UndoRefusal(message: "run \(run.id): \(DNFPlanText.nothingToDo(for: job.request))")
        }
        // The versions the undo takes away are kept in turn, so that the undo can be undone.
        let keeper = HistoryDNFKeeper.open(history, jobName: job.request.summary, operation: job.request.operation)
        return PlannedUndo(
            name: "\(job.request.summary) · \(plan.summary)", updates: plan.updates,
            driver: DNFDriver(plan: plan, helper: helper, keeper: keeper), runSlot: keeper?.runSlot,
            finish: {
                folder.remove()
                return DNFUndoRequest.editWarnings(undoing: run, root: job.installRoot)
            },
            discard: folder.remove)
    }
}
