/// The payload of `progress`: an update's percent and status text, and the job's percent (rule 6).
public struct ProgressReport: Sendable, Hashable {
    public var job: Int
    public var index: Int
    /// `nil` while the update is indeterminate (rule 7).
    public var updatePercent: Double?
    public var jobPercent: Double
    /// The latest status text, when this report carries one.
    public var message: String?

    public init(job: Int, index: Int, updatePercent: Double?, jobPercent: Double, message: String?) {
        self.job = job
        self.index = index
        self.updatePercent = updatePercent
        self.jobPercent = jobPercent
        self.message = message
    }
}

extension ProgressReport {
    /// The update this is about.
    public var updateKey: UpdateKey { UpdateKey(job: job, index: index) }
}
