/// One update of one job: job number and position in the job.
public struct UpdateKey: Sendable, Hashable {
    public var job: Int
    public var index: Int

    public init(job: Int, index: Int) {
        self.job = job
        self.index = index
    }
}
