/// One host's line of Ansible's PLAY RECAP: its counts over the whole run.
public struct HostRecap: Sendable, Hashable, CustomStringConvertible {
    public var ok = 0
    public var changed = 0
    public var unreachable = 0
    public var failed = 0
    public var skipped = 0
    public var rescued = 0
    public var ignored = 0

    public init() {}

    /// Ansible failed the host: a failure it neither rescued nor ignored, or it was unreachable.
    public var hostFailed: Bool { failed > 0 || unreachable > 0 }

    public var description: String {
        "ok=\(ok) changed=\(changed) unreachable=\(unreachable) failed=\(failed) skipped=\(skipped) rescued=\(rescued) ignored=\(ignored)"
    }
}
