/// One update of one job: job number and position in the job. Ordered by job, then position.
public struct UpdateKey: Sendable, Hashable, Comparable {
    public var job: Int
    public var index: Int

    public init(job: Int, index: Int) {
        self.job = job
        self.index = index
    }

    public static func < (lhs: UpdateKey, rhs: UpdateKey) -> Bool {
        (lhs.job, lhs.index) < (rhs.job, rhs.index)
    }
}
