import InstallEngine

/// The updates of a line-driven job as its translator has told the job of them (`apt`'s
/// `APTRunState`, dnf's `DNFRunState`): which started, which got their verdict, and the tool's
/// lines from before any update started, given to the first that starts. A translator says an
/// update's start and end only through it, so the job hears each update start once, before any
/// other word of it, and end once; these sets are what the job machine was told, not a second
/// account beside it.
struct ReportedUpdates: Sendable {
    private(set) var started: Set<Int> = []
    private(set) var finished: Set<Int> = []
    /// Lines before any update started, bounded: a tool that prints without end before its
    /// first package costs no more than this.
    private var waitingOutput: [(StandardStream, String)] = []
    static let waitingOutputLimit = 500

    /// Whether the job was told that update `index` started.
    func hasStarted(_ index: Int) -> Bool { started.contains(index) }

    /// Whether the job was told update `index`'s verdict.
    func hasFinished(_ index: Int) -> Bool { finished.contains(index) }

    /// Tells the job that update `index` started, unless it was told, followed by the lines that
    /// waited for a first update. Returns whether it started now.
    @discardableResult
    mutating func start(_ index: Int, into reports: inout [DriverReport]) -> Bool {
        guard started.insert(index).inserted else { return false }
        reports.append(.updateStarted(index: index))
        for (stream, text) in waitingOutput { reports.append(.update(index: index, .output(stream, text))) }
        waitingOutput.removeAll()
        return true
    }

    /// Tells the job update `index`'s verdict, starting it first when it had not started;
    /// nothing when its verdict was told already (the first stands).
    mutating func finish(_ index: Int, _ verdict: DriverVerdict, into reports: inout [DriverReport]) {
        guard !finished.contains(index) else { return }
        start(index, into: &reports)
        finished.insert(index)
        reports.append(.updateFinished(index: index, verdict))
    }

    /// A line of the tool that no update can be given yet (none started): kept for the first
    /// that starts, up to `waitingOutputLimit` lines.
    mutating func holdOutput(_ stream: StandardStream, _ line: String) {
        guard waitingOutput.count < Self.waitingOutputLimit else { return }
        waitingOutput.append((stream, line))
    }
}
