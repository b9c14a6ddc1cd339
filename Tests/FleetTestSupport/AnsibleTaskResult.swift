/// What Ansible's default output says of one task on one host (`ok: [web1]`, `fatal: [web1]:
/// FAILED!`, `...ignoring`); for a loop, the items taken together.
public enum AnsibleTaskResult: String, Sendable, Hashable {
    case ok
    case skipped
    /// Failed: ended the host, or was rescued (the output does not tell those apart; the
    /// recap counts the rescued ones).
    case failed
    /// Failed, followed by `...ignoring`.
    case ignored
    case unreachable
}
