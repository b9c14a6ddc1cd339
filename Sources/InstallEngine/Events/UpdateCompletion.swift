/// The payload of `update.completed`: an update's final result.
public struct UpdateCompletion: Sendable, Hashable {
    public var job: Int
    public var index: Int
    public var updateID: String
    public var result: UpdateInstallationResult
}

extension UpdateCompletion {
    /// The update this is about.
    public var updateKey: UpdateKey { UpdateKey(job: job, index: index) }
}
