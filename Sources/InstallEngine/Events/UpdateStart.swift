/// The payload of `update.started`: announced before the update's child is spawned.
public struct UpdateStart: Sendable, Hashable {
    public var job: Int
    /// The update's position in the job.
    public var index: Int
    public var updateID: String
    /// The update this start adds after the job's last one (rule 28: an observed job without a
    /// plan, as dpkg names a package the job does not have); its `index` is then the job's
    /// update count before it. `nil` for an update the job had.
    public var added: Update?
}

extension UpdateStart {
    /// The update this is about.
    public var updateKey: UpdateKey { UpdateKey(job: job, index: index) }
}
