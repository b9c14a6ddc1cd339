/// The grouped board's header: how many hosts are in each state. A host counts in one of
/// connecting, unreachable (its link failed, or its engine does not answer), installing,
/// failed (its newest job failed, none runs) or idle; reboot and restarts count besides, from
/// each host's own engine.
public struct HostCounts: Sendable, Hashable {
    public var total = 0
    public var connecting = 0
    public var idle = 0
    public var installing = 0
    public var failed = 0
    public var unreachable = 0
    /// Hosts whose engine says a reboot is required.
    public var rebootRequired = 0
    /// Hosts whose newest restart scan lists services to restart.
    public var servicesToRestart = 0

    public init() {}
}
