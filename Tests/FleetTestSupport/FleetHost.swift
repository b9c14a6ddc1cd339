/// One test host of a `FleetTestHosts`: a network namespace with its own sshd.
public struct FleetHost: Sendable, Equatable {
    /// 1 for `h1`: what `stopSSHD(host:)` and `run(onHost:_:)` take.
    public let index: Int
    /// The inventory name and the host's hostname (`h1` …).
    public let name: String
    /// The network namespace (`itop-<run>-h1`).
    public let namespace: String
    /// Its address on the controller's bridge (10.77.0.11 for h1).
    public let address: String
}
