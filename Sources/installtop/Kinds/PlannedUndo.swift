import InstallEngine
import InstallHistory

/// The undo of a run as its kind planned it (`KindRegistration.planUndo`), ready to be queued
/// by `UndoQueuing` however the kind made it: an uninstall job of `updates` run by `driver`,
/// awaiting the operator's yes.
struct PlannedUndo: Sendable {
    /// The job's name: what it undoes and its plan (`apt undo 7 · 2 to downgrade`).
    let name: String
    let updates: [Update]
    let driver: any JobDriver
    /// The run the driver's keeper shares with the recorder; `nil` when it keeps nothing.
    let runSlot: JobRunSlot?
    /// Called once the job has ended, however it ended (declined too): the kind's clean-up;
    /// returns what the operator must know of it, each said after `KIND undo RUN: `.
    let finish: @Sendable () -> [String]
    /// Called instead of `finish` when the job could not be queued: what the plan left behind goes.
    let discard: @Sendable () -> Void
}
