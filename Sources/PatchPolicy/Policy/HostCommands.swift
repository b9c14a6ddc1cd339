import InstallEngine

/// Commands run on the admin machine around each host's step (draining a load balancer,
/// silencing an alert): `before` must exit 0 for the host to be patched.
public struct HostCommands: Sendable, Hashable {
    public let before: UpdateCommand?
    public let after: UpdateCommand?

    public init(before: UpdateCommand? = nil, after: UpdateCommand? = nil) {
        self.before = before
        self.after = after
    }
}
