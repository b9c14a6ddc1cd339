/// The payload of `progress`: an update's percent and status text, and the job's percent (rule 6).
public struct UpdateProgress: Sendable, Hashable {
    public var job: Int
    public var index: Int
    /// `nil` while the update is indeterminate (rule 7).
    public var updatePercent: Double?
    public var jobPercent: Double
    /// The latest status text, when this report carries one.
    public var message: String?
    /// The job's status text as it stands when the report was made (`JobMachine.jobMessage`):
    /// every report carries it, so `nil` means the job has none now.
    public var jobMessage: String?
}

extension UpdateProgress {
    /// The update this is about.
    public var updateKey: UpdateKey { UpdateKey(job: job, index: index) }
}
