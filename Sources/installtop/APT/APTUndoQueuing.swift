#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import InstallDrivers
import InstallEngine
import InstallHistory
import Synchronization

/// Plans the undo of a job run and queues it on an engine's queue awaiting the operator's yes:
/// what `u` in a monitor's history view asks for, of this process's engine (`installtop run`,
/// `installtop apt …`) or of an attached one (`serve`'s `undo` command). The job is the one
/// `installtop apt undo` runs (an uninstall job with `undoOf`, its replaced versions kept in
/// turn), and its plan dialog is the question; declined, it runs nothing. After it ends, the
/// staged files go and the automatic marks come back (`APTUndoPreparation.finish`).
struct APTUndoQueuing: Sendable {
    let queue: JobQueue
    let history: HistoryOptions
    /// The apt root the undo acts on: `--apt-config` and `--chroot` of the command that owns
    /// the engine (this system's when `nil`).
    let aptConfig: String?
    let chroot: String?
    let slots: JobRunSlots
    /// Where a failed clean-up after the job is said (stderr, or the engine's log).
    let warn: @Sendable (String) -> Void

    /// Plans and queues the undo of `run` (as `UndoQueuing` found it); returns the job's number.
    /// - Throws: `UndoRefusal` (nothing queued, nothing changed): what `apt undo` refuses,
    ///   or apt's refusal of the plan (`UndoQueuing` refuses a second undo of the run).
    func queueUndo(of run: JobRun) throws(UndoRefusal) -> Int {
        let id = Int(run.id)
        let preparation = try APTUndoPreparation.prepare(undoing: run, aptConfig: aptConfig, chroot: chroot)
        let chroot = preparation.environment.chroot
        let job = PackageJob(request: preparation.request, aptConfig: aptConfig, chroot: chroot)
        let summary = APTJobKind.summary(of: preparation.request)
        let plan: APTPlan
        do {
            plan = try APTPlanner.plan(job)
        } catch {
            preparation.discard()
            throw UndoRefusal(message: "apt cannot plan the undo of run \(id): \(error.message)"
                + APTUndoRequest.interruptedAdvice(error.message, run: id))
        }
        guard !plan.isEmpty else {
            preparation.discard()
            throw UndoRefusal(message: "run \(id): \(APTPlanText.nothingToDo(for: preparation.request))")
        }
        // The versions the undo replaces are kept in turn, so the undo can be undone (rule 33).
        let keeper = HistoryVersionKeeper.open(history, jobName: summary, operation: .uninstall)
        // What the undo leaves is in its name: the plan dialog of `u` and the board show it.
        let name = "\(summary) · \(plan.summary)" + preparation.leaves.map { " · leaves \($0)" }.joined()
        return try UndoJobSubmission(queue: queue, slots: slots).submit(
            undoing: id, name: name, updates: plan.updates, driver: APTDriver(plan: plan, keeper: keeper),
            runSlot: keeper?.runSlot,
            afterEnd: { [warn] in
                for warning in preparation.finish() { warn("apt undo \(id): \(warning)") }
                keeper?.prune()
            },
            discard: preparation.discard)
    }
}
