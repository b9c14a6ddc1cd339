import InstallEngine

/// A run across a fleet (Documentation/ANSIBLE.md): an Ansible playbook whose hosts become jobs
/// and whose tasks become their updates, declared by the driver as it runs (rule 27).
public struct FleetJob: Sendable, Hashable {
    /// The playbook's path, absolute.
    public var playbook: String
    /// Inventories (`-i`), absolute paths or host lists as given.
    public var inventories: [String]
    /// `--limit`.
    public var limit: String?
    /// More arguments for ansible-playbook.
    public var arguments: [String]

    public init(playbook: String, inventories: [String] = [], limit: String? = nil, arguments: [String] = []) {
        self.playbook = playbook
        self.inventories = inventories
        self.limit = limit
        self.arguments = arguments
    }

    /// ansible-playbook's arguments: the playbook, `-i` each inventory, `--limit`, the rest.
    public var commandArguments: [String] {
        [playbook] + inventories.flatMap { ["-i", $0] } + (limit.map { ["--limit", $0] } ?? []) + arguments
    }
}
