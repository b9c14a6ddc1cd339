/// How many hosts may fail (their job failed, reverted, or they were unreachable) before the
/// night stops: a number of hosts, or a share of the policy's hosts.
public enum FailureBudget: Sendable, Hashable {
    case hosts(Int)
    /// 0 to 100, of the policy's hosts, rounded down.
    case percent(Int)

    /// The failures tolerated among `hostCount` hosts: one more stops the night. 0 (the
    /// default) stops it at the first failure.
    public func tolerated(of hostCount: Int) -> Int {
        switch self {
        case .hosts(let count): count
        case .percent(let percent): hostCount * percent / 100
        }
    }

    /// `2 hosts`, `10%`.
    public var description: String {
        switch self {
        case .hosts(let count): count == 1 ? "1 host" : "\(count) hosts"
        case .percent(let percent): "\(percent)%"
        }
    }
}
