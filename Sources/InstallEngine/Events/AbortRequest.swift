/// The payload of `job.abortRequested`.
public struct AbortRequest: Sendable, Hashable {
    public var job: Int
    /// True for the escalation of rule 12.
    public var force: Bool

    public init(job: Int, force: Bool) {
        self.job = job
        self.force = force
    }
}
