/// The payload of `update.started`: announced before the update's child is spawned.
public struct UpdateStart: Sendable, Hashable {
    public var job: Int
    /// The update's position in the job.
    public var index: Int
    public var updateID: String

    public init(job: Int, index: Int, updateID: String) {
        self.job = job
        self.index = index
        self.updateID = updateID
    }
}

extension UpdateStart {
    /// The update this is about.
    public var updateKey: UpdateKey { UpdateKey(job: job, index: index) }
}
