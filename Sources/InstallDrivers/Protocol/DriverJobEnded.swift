/// `{"type":"jobEnded","job":"web3","reason":"host unreachable"}`: nothing more runs in this
/// job; the updates it did not reach are not started, with `reason`.
public struct DriverJobEnded: Sendable, Hashable {
    public var job: String
    public var reason: String?

    public init(job: String, reason: String?) {
        self.job = job
        self.reason = reason
    }
}
