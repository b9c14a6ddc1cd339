/// What a `.progress` change says about the update it names: its percent and status text as
/// they stood when the change was made. Carried with the change
/// (`InstallationProgressChangedArgs.figures`), so a consumer never reads an update's figures
/// back out of the whole-job snapshot, whose current update is a matter of the machine's
/// bookkeeping. (The job's own figures, `percentComplete` and `jobMessage`, are the snapshot's.)
public struct ProgressFigures: Sendable, Hashable {
    /// The update's percent, 0–100; `nil` while it is indeterminate (rule 7).
    public let percent: Double?
    /// The update's latest status text, if it said any.
    public let message: String?

    public init(percent: Double?, message: String?) {
        self.percent = percent
        self.message = message
    }
}
