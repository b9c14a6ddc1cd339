import InstallEngine

/// A tool started before the job that will own it exists (`installtop apt … --yes`, `installtop
/// dnf … --yes`: the tool says the plan, the job is made from it): its process, and its lines
/// kept in order until the one driver that takes the tool over attaches, then handed on as they
/// come. A value kept under its owner's lock (`PreStartedTool`).
struct ToolHandOff: Sendable {
    var process: ChildProcess?
    /// Whether the owner was asked to stop the tool before any driver took it over.
    var stopRequested = false
    /// The lines for the driver, until it attaches.
    private var pending: [ToolLine] = []
    private var receiver: (@Sendable (ToolLine) -> Void)?
    /// The receiver's `ChildSinks.afterReads`.
    private(set) var afterReads: (@Sendable () -> Void)?
    private var taken = false

    /// Whether no driver has taken the process over yet.
    var canBeTakenOver: Bool { !taken && process != nil }

    /// The process, for the one driver that takes the tool over; `nil` after the first call (a
    /// retry runs a tool of its own).
    mutating func takeOver() -> ChildProcess? {
        defer { taken = true }
        return taken ? nil : process
    }

    /// Hands every line kept so far to `receiver`, in order, then each later one as it comes
    /// (`handOn`); the caller runs `afterReads` once the lock is released.
    mutating func attach(_ receiver: @escaping @Sendable (ToolLine) -> Void, afterReads: @escaping @Sendable () -> Void) {
        for line in pending { receiver(line) }
        pending = []
        self.receiver = receiver
        self.afterReads = afterReads
    }

    /// Hands `line` to the attached driver; `false` when none is attached yet (the owner then
    /// keeps it, `keep`, or has a use of its own for it).
    func handOn(_ line: ToolLine) -> Bool {
        guard let receiver else { return false }
        receiver(line)
        return true
    }

    /// Keeps `line` for the driver that will attach.
    mutating func keep(_ line: ToolLine) {
        pending.append(line)
    }
}
