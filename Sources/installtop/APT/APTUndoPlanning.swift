#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallEngine
import InstallHistory

/// Plans the undo of an apt job run for `UndoQueuing`: what `u` in a monitor's history view
/// asks for, of this process's engine (`installtop run`, `installtop apt …`) or of an attached
/// one (`serve`'s `undo` command). The job is the one `installtop apt undo` runs (an uninstall
/// job with `undoOf`, its replaced versions kept in turn). After it ends, the staged files go
/// and the automatic marks come back (`APTUndoPreparation.finish`).
enum APTUndoPlanning {
    /// The undo of `run` in the apt root `aptConfig` and `chroot` name (this system's when both
    /// are `nil`: `--apt-config` and `--chroot` of the command that owns the engine).
    /// - Throws: `UndoRefusal` (nothing planned, nothing left behind): what `apt undo`
    ///   refuses, or apt's refusal of the plan.
    static func plan(undoing run: JobRun, aptConfig: String?, chroot: String?, history: HistoryOptions) throws(UndoRefusal) -> PlannedUndo {
        let id = Int(run.id)
        let preparation = try APTUndoPreparation.prepare(undoing: run, aptConfig: aptConfig, chroot: chroot)
        let job = PackageJob(request: preparation.request, aptConfig: aptConfig, chroot: preparation.environment.chroot)
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
        return PlannedUndo(
            name: name, updates: plan.updates, driver: APTDriver(plan: plan, keeper: keeper), runSlot: keeper?.runSlot,
            finish: {
                let warnings = preparation.finish()
                keeper?.prune()
                return warnings
            },
            discard: preparation.discard)
    }
}
