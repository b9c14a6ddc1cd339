/// `{"type":"jobEnded","job":"web3","reason":"host unreachable"}`: nothing more runs in this
/// job; the updates it did not reach are not started, with `reason`.
public struct DriverJobEnded: Sendable, Hashable {
    public var job: String
    public var reason: String?
    /// The driver never came to this job (a later batch of a play that stopped): if it never
    /// began, its updates end aborted, not started, rather than failed.
    public var notReached: Bool

    public init(job: String, reason: String?, notReached: Bool = false) {
        self.job = job
        self.reason = reason
        self.notReached = notReached
    }
}
