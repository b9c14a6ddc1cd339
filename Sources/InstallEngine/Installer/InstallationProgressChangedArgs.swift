/// What a progress callback receives (WUA `IInstallationProgressChangedCallbackArgs`).
public struct InstallationProgressChangedArgs: Sendable {
    /// The job's progress right after the change.
    public let progress: InstallationProgress
    /// What changed.
    public let change: JobChange
}

/// Called for every change of a job, in order, never concurrently (rule 8).
public typealias InstallationProgressChangedCallback =
    @Sendable (InstallationJob, InstallationProgressChangedArgs) -> Void

/// Called exactly once when the job has completed, after its last progress callback (rule 9).
public typealias InstallationCompletedCallback = @Sendable (InstallationJob) -> Void
