/// One host of the grouped board: its name and how its link stands.
public struct BoardHost: Sendable, Hashable {
    /// The name as the operator wrote it (`--host`, the inventory).
    public var name: String
    public var link: HostLinkStatus
    /// Whether the host ever answered: a host that never did is "connecting" (then
    /// "unreachable"), one that did and was lost keeps its jobs, stale.
    public var everConnected = false

    public init(name: String, link: HostLinkStatus = .connecting) {
        self.name = name
        self.link = link
    }

    /// True while the host's jobs are what it said before its link failed or its engine fell
    /// silent.
    public var isStale: Bool { link.staleSince != nil }
}
