/// What changed in a job, carried with each progress callback so consumers need not diff
/// snapshots. Our addition to WUA's `IInstallationProgressChangedCallbackArgs`.
public enum JobChange: Sendable, Hashable {
    /// Update `index` is about to start; its child has not been spawned yet.
    case updateStarted(index: Int)
    /// `update` was added after the job's last update, at `index`, by its driver (rule 28), and
    /// is about to start: announced instead of `updateStarted` for it. Boxed (`indirect`), as
    /// the update is large and rare: every other change, copied once per event, stays small.
    indirect case updateAdded(index: Int, update: Update)
    /// The percentage or status text of update `index` changed (see the snapshot).
    case progress(index: Int)
    /// Update `index` wrote a line on stdout or stderr.
    case output(index: Int, stream: StandardStream, line: String)
    /// Update `index` reached its final result (see `progress.updateResult(at:)`); also sent for
    /// updates that never started because of an abort or `stopOnFailure`.
    case updateCompleted(index: Int)
    /// An abort was requested; `force` for the escalation of rule 12.
    case abortRequested(force: Bool)
}
