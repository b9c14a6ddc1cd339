#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallHistory

/// The step that arms a run once its job has ended and been recorded, for the command that
/// ran the job (`CommitConfirmedSession`) and for an engine (`EngineArmings`): the checks
/// again, the regressions against the baseline, and the window recorded with its deadline
/// counted from now and which checks ran (`ArmedRunCheck` runs them again). A run that cannot
/// be undone (a version not kept, the history lost it) is recorded `expired` with why, never
/// armed: a deadline would promise a revert that cannot be.
struct ConfirmWindowArming {
    let store: HistoryStore
    let baseline: [HealthObservation]
    let probe: HealthProbe
    let seconds: Double
    let revertOnRegression: Bool
    /// Records in the window the tool and root the job acted on, which the revert acts on
    /// (`ArmedJob.locate`).
    let locate: (inout ConfirmWindow) -> Void
    /// What the tool has half-way in a run's database, which its undoability follows.
    let halfWay: (_ administrativeDirectory: String) -> [String: HalfWayPackage]

    enum Outcome {
        /// Recorded armed; `checkedAfter` is what the checks said after the job.
        case armed(ConfirmWindow, checkedAfter: [HealthObservation])
        /// Recorded `expired`: the run cannot be undone, for `reason`.
        case notUndoable(reason: String)
        /// The history could not record the window.
        case notRecorded(String)
    }

    /// Arms run `run`.
    func arm(run: Int64) -> Outcome {
        let checkedAfter = probe.observe()
        let regressions = HealthComparison.regressions(before: baseline, after: checkedAfter)
        let now = Date()
        var window = ConfirmWindow(run: run, armedAt: now, deadline: now.addingTimeInterval(seconds),
                                   revertOnRegression: revertOnRegression, regressions: regressions)
        // Which checks ran, so that they can be run again (`ArmedRunCheck`).
        window.checks = probe.commands
        window.checksDirectory = probe.checksDirectory
        locate(&window)
        let undoable = (try? store.jobRun(run, halfWay: halfWay)).flatMap { $0 }
        if let reason = undoable?.notUndoableBecause ?? (undoable == nil ? "the history does not hold it" : nil) {
            window.state = .expired
            window.decidedAt = now
            window.reason = "not armed: it cannot be undone: \(reason)"
            try? store.armConfirmWindow(window, baseline: baseline, checkedAfter: checkedAfter)
            return .notUndoable(reason: reason)
        }
        do {
            try store.armConfirmWindow(window, baseline: baseline, checkedAfter: checkedAfter)
        } catch {
            return .notRecorded("\(error)")
        }
        return .armed(window, checkedAfter: checkedAfter)
    }
}
