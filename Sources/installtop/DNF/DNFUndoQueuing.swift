import InstallDrivers
import InstallEngine
import InstallHistory

/// Plans the undo of a dnf job run and queues it on an engine's queue awaiting the operator's
/// yes: what `u` in a monitor's history view asks for a dnf run (`UndoQueuing`). The job is the
/// one `installtop dnf undo` runs (an uninstall job with `undoOf`, in the root the run
/// recorded, what it takes away kept in turn); its plan dialog is the question, and declined
/// it runs nothing. The helper's folder goes when the job ends.
struct DNFUndoQueuing: Sendable {
    let queue: JobQueue
    let history: HistoryOptions
    let slots: JobRunSlots
    /// Where what the operator must know after the undo is said (stderr, or the engine's log).
    let warn: @Sendable (String) -> Void

    /// Plans and queues the undo of `run`; returns the job's number.
    /// - Throws: `UndoRefusal` (nothing queued, nothing changed): what `dnf undo` refuses,
    ///   or dnf's refusal of the plan.
    func queueUndo(of run: JobRun) throws(UndoRefusal) -> Int {
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
        return try UndoJobSubmission(queue: queue, slots: slots).submit(
            undoing: Int(run.id), name: "\(job.request.summary) · \(plan.summary)", updates: plan.updates,
            driver: DNFDriver(plan: plan, helper: helper, keeper: keeper), runSlot: keeper?.runSlot,
            afterEnd: { [warn] in
                folder.remove()
                for warning in DNFUndoRequest.editWarnings(undoing: run, root: job.installRoot) { warn("dnf undo \(run.id): \(warning)") }
            },
            discard: folder.remove)
    }
}
