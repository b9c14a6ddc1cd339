/// What still runs old code and whether the machine needs a reboot (rule 32): one scan's answer.
public struct RestartAdvice: Sendable, Hashable {
    /// Processes that map deleted or replaced executable files, by pid.
    public var processes: [StaleProcess]
    /// Processes the scan could not read, by pid; they may run old code too.
    public var unreadable: [UnreadableProcess]
    /// Empty when no reboot is needed.
    public var rebootReasons: [RebootReason]
    /// Processes in another root than the scanned one (a chroot's, a container's, the host's
    /// seen from inside a chroot) that run code their own root deleted or replaced, by pid, each
    /// with its `root`: not this root's to restart, so they count for neither `services` nor
    /// `needsAction`.
    public var otherRoots: [StaleProcess]
    /// Services the job this advice completed restarted without leaving them running (or whose
    /// restart failed), by the job's order: a scan lists no process of a service that is not
    /// running, so without these the advice would take them for restarted.
    public var failedRestarts: [FailedRestart]
    /// Whether root made the scan: then what it could not read is hidden from root too (a
    /// container's other processes, `hidepid`, a security module), and "run as root" is no
    /// advice.
    public var scannedAsRoot: Bool

    public init(processes: [StaleProcess] = [], unreadable: [UnreadableProcess] = [], rebootReasons: [RebootReason] = [], otherRoots: [StaleProcess] = [],
                failedRestarts: [FailedRestart] = [], scannedAsRoot: Bool = false) {
        self.processes = processes
        self.unreadable = unreadable
        self.rebootReasons = rebootReasons
        self.otherRoots = otherRoots
        self.failedRestarts = failedRestarts
        self.scannedAsRoot = scannedAsRoot
    }

    public var rebootRequired: Bool { !rebootReasons.isEmpty }

    /// True when some service or process needs a restart or a reboot is needed (`installtop
    /// restarts` exits 1). Unreadable processes alone do not make it true: they make the
    /// advice incomplete (`isComplete`).
    public var needsAction: Bool { !processes.isEmpty || !failedRestarts.isEmpty || rebootRequired }

    /// False when the scan could not read some processes (another user's, when not root): any
    /// of them may run old code, so "nothing needs a restart" cannot be said.
    public var isComplete: Bool { unreadable.isEmpty }

    /// The services to restart, each once, sorted: systemd units, and init scripts' paths
    /// (`/etc/init.d/nginx`) for services an init script started outside systemd; those whose
    /// restart failed (`failedRestarts`) too.
    public var services: [String] {
        Array(Set(processes.compactMap(\.owner.service) + failedRestarts.map(\.service))).sorted()
    }

    /// The processes in groups by owner: services first (sorted by unit), then sessions,
    /// containers and bare processes; processes keep their pid order inside a group.
    public var groups: [(owner: ProcessOwner, processes: [StaleProcess])] {
        var order: [ProcessOwner] = []
        var members: [ProcessOwner: [StaleProcess]] = [:]
        for process in processes {
            if members[process.owner] == nil { order.append(process.owner) }
            members[process.owner, default: []].append(process)
        }
        return order.sorted { Self.sortKey($0) < Self.sortKey($1) }.map { ($0, members[$0] ?? []) }
    }

    private static func sortKey(_ owner: ProcessOwner) -> String {
        switch owner {
        case .service(let unit): "0" + unit
        case .initScript(let name): "0" + ProcessOwner.initScriptFolder + name
        case .session(let name): "1" + name
        case .container(let name): "2" + name
        case .bare: "3"
        }
    }
}
