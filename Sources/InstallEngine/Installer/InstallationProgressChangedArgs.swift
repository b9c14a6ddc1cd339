/// What a progress callback receives (WUA `IInstallationProgressChangedCallbackArgs`).
public struct InstallationProgressChangedArgs: Sendable {
    /// The job's progress right after the change.
    public let progress: InstallationProgress
    /// What changed.
    public let change: JobChange
    /// For a `.progress` change, the figures it says (ours); `nil` for every other change.
    public let figures: ProgressFigures?

    init(progress: InstallationProgress, change: JobChange, figures: ProgressFigures? = nil) {
        self.progress = progress
        self.change = change
        self.figures = figures
    }
}

/// Called for every change of a job, in order, never concurrently (rule 8).
public typealias InstallationProgressChangedCallback =
    @Sendable (InstallationJob, InstallationProgressChangedArgs) -> Void

/// Called exactly once when the job has completed, after its last progress callback (rule 9).
public typealias InstallationCompletedCallback = @Sendable (InstallationJob) -> Void
