import EngineWire

/// The grouped board's own state (`installtop attach --host …`): the hosts in order, where each
/// job comes from, which hosts show their jobs, and whether a host's row is selected.
public struct HostBoard: Sendable, Hashable {
    /// The hosts, in the order the operator gave them.
    public internal(set) var hosts: [BoardHost]
    /// Each board job's host and number there (set through `setOrigin`).
    public private(set) var origins: [Int: JobOrigin] = [:]
    /// Each host's board jobs, in the order they were numbered: what the rows, bars and counts
    /// read every frame, without going through every job of every host (200 hosts of 200 jobs
    /// made the frame 10 ms).
    public private(set) var jobsByHost: [String: [Int]] = [:]
    /// Hosts whose jobs are listed under their row.
    public internal(set) var expanded: Set<String> = []
    /// The host whose row is selected; `nil` when a job row under an expanded host is (the
    /// selection's job). A host is known by its name, never by its row, so sorting the rows or
    /// replacing a host's queue leaves it selected.
    public internal(set) var selectedHost: String?
    /// The job row selected when its host's queue was replaced: selected again when the host's
    /// snapshot brings it back (`HostEvent.queueShown`), unless the operator moved meanwhile.
    var returningJob: Int?
    /// Hosts between `queueReplaced` and `queueShown` (the link posts both and the snapshot
    /// between them at once): their queue is incomplete, so a selection on them does not follow
    /// the work to another host meanwhile.
    var hostsAwaitingSnapshot: Set<String> = []
    /// The hosts marked for a rollout (`m`, `M`), by name: a host that reconnects keeps its mark.
    public internal(set) var marked: Set<String> = []
    /// Each host's newest pending snapshot, by name; none for a host whose engine keeps none.
    public internal(set) var pending: [String: PendingSnapshot] = [:]
    /// Hosts whose engine computes a newer snapshot, or waits for a change of its root to end:
    /// their row says what it shows is being recomputed.
    public internal(set) var pendingComputing: Set<String> = []
    /// Each host's commit-confirmed runs as its engine told them, by name.
    public internal(set) var armed: [String: ArmedRuns] = [:]
    /// The patch night the board follows (`--night`), as its stamp last said; `nil` for none.
    public internal(set) var night: BoardNight?
    /// Which hosts are listed (`F`) and in what order (`o`).
    public internal(set) var hostFilter = HostFilter.all
    public internal(set) var hostSort = HostSort.given

    public init(hosts: [String]) {
        self.hosts = hosts.map { BoardHost(name: $0) }
        selectedHost = hosts.first
    }

    /// The host named `name`, if it is on the board.
    public func host(named name: String) -> BoardHost? {
        hosts.first { $0.name == name }
    }

    /// Board job `id` is `origin`'s job.
    mutating func setOrigin(_ origin: JobOrigin, forBoardJob id: Int) {
        if let old = origins[id]?.host, old != origin.host { jobsByHost[old]?.removeAll { $0 == id } }
        origins[id] = origin
        var jobs = jobsByHost[origin.host] ?? []
        guard !jobs.contains(id) else { return }
        // Numbers are given in order; a renumbered host's jobs keep theirs, so keep them sorted.
        jobs.insert(id, at: jobs.firstIndex { $0 > id } ?? jobs.endIndex)
        jobsByHost[origin.host] = jobs
    }

    mutating func update(_ name: String, _ change: (inout BoardHost) -> Void) {
        guard let index = hosts.firstIndex(where: { $0.name == name }) else { return }
        change(&hosts[index])
    }
}
