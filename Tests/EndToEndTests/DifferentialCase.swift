import Testing

/// One playbook of the differential corpus: run by plain `ansible-playbook` and through
/// `installtop ansible --json` on the same local-connection hosts, the board must agree with
/// Ansible's own account. `proves` says what the case holds installtop to.
struct DifferentialCase: Sendable, CustomTestStringConvertible {
    let name: String
    let proves: String
    /// The playbook; hosts are `web1`…`web4` (group `web`), local connection.
    let playbook: String
    /// Given to ansible-playbook (after `--` for installtop).
    var arguments: [String] = []
    /// More files beside the playbook (roles, imported playbooks), by relative path.
    var files: [String: String] = [:]

    var testDescription: String { name }
}
