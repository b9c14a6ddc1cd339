/// The grouped board's own state (`installtop attach --host …`): the hosts in order, where each
/// job comes from, which hosts show their jobs, and whether a host's row is selected.
public struct HostBoard: Sendable, Hashable {
    /// The hosts, in the order the operator gave them.
    public internal(set) var hosts: [BoardHost]
    /// Each board job's host and number there.
    public internal(set) var origins: [Int: JobOrigin] = [:]
    /// Hosts whose jobs are listed under their row.
    public internal(set) var expanded: Set<String> = []
    /// The host whose row is selected; `nil` when a job row under an expanded host is (the
    /// selection's job).
    public internal(set) var selectedHost: String?

    public init(hosts: [String]) {
        self.hosts = hosts.map { BoardHost(name: $0) }
        selectedHost = hosts.first
    }

    /// The host named `name`, if it is on the board.
    public func host(named name: String) -> BoardHost? {
        hosts.first { $0.name == name }
    }

    mutating func update(_ name: String, _ change: (inout BoardHost) -> Void) {
        guard let index = hosts.firstIndex(where: { $0.name == name }) else { return }
        change(&hosts[index])
    }
}
