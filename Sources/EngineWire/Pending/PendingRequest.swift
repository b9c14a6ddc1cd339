/// The members of the `pending` command: `{"command":"pending","recompute":true,"wait":true}`.
public struct PendingRequest: Sendable, Hashable {
    /// Compute a new snapshot of the engine's root (at once, or after the engine's running
    /// package jobs); the reply does not wait for it unless `wait` says so.
    public var recompute: Bool
    /// Reply once no snapshot is being computed or about to be and no refresh job is queued or
    /// running, with the newest (one owed after another running package job is not waited
    /// for: the reply says `computing`); otherwise at once with what the engine has.
    public var wait: Bool

    public init(recompute: Bool = false, wait: Bool = false) {
        self.recompute = recompute
        self.wait = wait
    }

    /// Reads the members; both default to false.
    /// - Throws: `badArgument` for a member that is not true or false.
    public init(_ object: WireObject) throws(WireError) {
        recompute = try object.bool("recompute", default: false)
        wait = try object.bool("wait", default: false)
    }

    /// Adds the members that differ from the defaults to a command object.
    public func add(to object: inout JSONObject) {
        if recompute { object.add("recompute", true) }
        if wait { object.add("wait", true) }
    }
}
