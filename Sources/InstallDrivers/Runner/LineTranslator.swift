import InstallEngine

/// What a kind whose tool writes lines (apt-get, and the planned dnf) supplies to
/// `LineDriverRunner`, which does the rest: it starts the process, reads its lines on the
/// process poller, hands them here in order, delivers the reports in order, stops and kills
/// the process and settles the driver's end.
///
/// A translator holds no lock and starts nothing: its `State` is kept by the runner, under the
/// runner's lock, and every method that changes it is called there, never concurrently.
protocol LineTranslator: Sendable {
    /// What the lines go through (apt: `APTRunState`): which update runs, which finished.
    associatedtype State: Sendable

    /// The least time between two hand-overs of the tool's lines to the job (see
    /// `ChildSinks.afterReadsInterval`); 25 ms by default, less than the monitor's frame.
    static var handOnInterval: Duration { get }

    /// The reports of `lines`, read together, in the order the tool wrote them (stdout, stderr
    /// and the status channel interleaved as read), appended to `reports`. A line it cannot
    /// read is counted as `DriverReport.ignoredLine`, not dropped silently.
    func translate(_ lines: ArraySlice<ToolLine>, in state: inout State, into reports: inout [DriverReport])

    /// The job asked for a stop at the next safe point (rule 24): the reports that says (the
    /// updates in progress are told), after the lines read before it. `askToStop` follows.
    func stopRequested(in state: inout State) -> [DriverReport]

    /// Asks the tool's process to stop at its next safe point (apt: SIGINT to apt-get alone).
    /// Called after `stopRequested`, with no lock held; the process may have ended.
    func askToStop(_ process: ChildProcess)

    /// A forced stop came (rule 25): the reports that refuse it, when the tool cannot be killed
    /// safely now (rpm's transaction: a cut leaves duplicate entries), or `nil` to kill it.
    /// `nil` by default.
    func killRefusal(in state: State) -> [DriverReport]?

    /// The tool's process ended (`outcome`) and every line it wrote was translated; `killed`
    /// lists what a forced stop killed (nil without one). What must still happen before the job
    /// hears of the end (apt: the repair after a kill, dpkg's final state, every package's
    /// verdict) happens here, saying its reports through `runner.deliver`. It runs on a thread
    /// of its own and may block (run commands, wait for processes); the driver's outcome settles
    /// when it returns, after its reports.
    func finish(after outcome: UpdateRunOutcome, killed: [ProcessTree.Member]?, runner: LineDriverRunner<Self>)
}

extension LineTranslator {
    static var handOnInterval: Duration { .milliseconds(25) }

    func killRefusal(in state: State) -> [DriverReport]? { nil }
}
