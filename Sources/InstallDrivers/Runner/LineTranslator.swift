import InstallEngine

/// What a kind whose tool writes lines (apt-get, and the planned dnf) supplies to
/// `LineDriverRunner`, which does the rest: it starts the process, reads its lines on the
/// process poller, hands them here in order, delivers the reports in order, stops and kills
/// the process, and carries out the end the translator plans (`end`, `perform`) before it settles
/// the driver's outcome.
///
/// A translator holds no lock and starts nothing: its `State` is kept by the runner, under the
/// runner's lock, and every method that changes it is called there, never concurrently.
protocol LineTranslator: Sendable {
    /// What the lines go through (apt: `APTRunState`): which update runs, which finished.
    associatedtype State: Sendable
    /// A piece of blocking work the end asks for (apt: a repair, dnf: the rpm database read).
    associatedtype EndWork: Sendable
    /// What such work found, for the end's next decision.
    associatedtype EndFinding: Sendable

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

    /// What the tool's end lets go at once, before anything is decided (apt: the gate between
    /// dpkg's archives). On the end's thread, with no lock held. Nothing by default.
    func toolEnded()

    /// The tool's process ended (`outcome`) and every line it wrote was translated; `killed`
    /// lists what a forced stop killed (nil without one). What must still happen before the job
    /// hears of the end (apt: the repair after a kill, dpkg's final state, every package's
    /// verdict), decided on values under the runner's lock: the reports to say now and the
    /// work the runner carries out next (`perform`), or none when the end is over.
    func end(after outcome: UpdateRunOutcome, killed: [ProcessTree.Member]?, in state: inout State) -> ToolEndPlan<EndWork>

    /// Carries out `work` on the end's own thread, with no lock held: it may block (run commands,
    /// wait for processes). What it says meanwhile (a repair's steps) goes through `say`, whose
    /// reports are made under the runner's lock and leave in order.
    func perform(_ work: EndWork, say: @escaping (_ make: (inout State) -> [DriverReport]) -> Void) -> EndFinding

    /// What follows `finding` at the end whose outcome was `outcome`, decided on values as `end`
    /// is. The driver's outcome settles after the reports of the plan without work.
    func end(after finding: EndFinding, of outcome: UpdateRunOutcome, in state: inout State) -> ToolEndPlan<EndWork>
}

extension LineTranslator {
    static var handOnInterval: Duration { .milliseconds(25) }

    func killRefusal(in state: State) -> [DriverReport]? { nil }

    func toolEnded() {}
}
