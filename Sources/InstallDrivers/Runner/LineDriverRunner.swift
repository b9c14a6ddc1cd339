#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization

/// A running driver whose tool writes lines (apt-get): the plumbing every such kind shares,
/// around the kind's `LineTranslator`.
///
/// The tool's lines are read on the engine's process poller (`ChildPoller`), not on a thread
/// of the driver's own, and kept as read; at the end of a wake-up of the poller (at most every
/// `handOnInterval`) they go through the translator together and their reports go to the job,
/// which the poller does itself when nothing else is queued. Reports of a stop request and of
/// the end are made under the same lock, after the lines read before them, so they leave in the
/// order things happened. The end runs on a thread of its own once the process has ended and
/// every line was read: the translator decides it on values (`LineTranslator.end`) and the
/// runner carries out the work it asks for (`perform`, which may block); the outcome settles
/// after its reports, and `whenEnded` hears of it then, with no task waiting for it.
final class LineDriverRunner<Translator: LineTranslator>: RunningDriver {
    private struct Shared {
        var translation: Translator.State
        var process: ChildProcess?
        /// What a forced stop killed.
        var killed: [ProcessTree.Member]?
        /// The reports queued last, which later ones join until `reports` takes them.
        var queuedReports: SerialWorkBatch<DriverReport>?
        /// The tool's lines read since the last hand-over, in order; translated only then
        /// (`takeLines`), so a wake-up of the poller for a line or two costs a copy, not the
        /// whole translation.
        var unread: [ToolLine] = []
        /// How many of `unread` were taken already (`takeLines` takes a flood's in pieces).
        var unreadTaken = 0
    }

    let translator: Translator
    private let reporter: any DriverReporter
    private let shared: Mutex<Shared>
    private let slot = OutcomeSlot()
    /// Hands reports on in the order they were made (from the tool's lines, a stop request and
    /// the end), with no lock held. The poller hands on those of the lines itself when the
    /// queue is idle (the job only queues inputs: the poller never waits for what a report
    /// leads to); the others never run reports on their threads.
    private let reports = SerialWorkQueue()

    /// How many lines `afterReads` hands on at a time.
    private static var linesPerHandOn: Int { 512 }

    /// A runner with nothing attached yet: `start` or `attach` gives it its process.
    init(translator: Translator, state: Translator.State, reporter: any DriverReporter) {
        self.translator = translator
        self.reporter = reporter
        shared = Mutex(Shared(translation: state))
    }

    /// Starts `spec` on `backend` with the runner's sinks and returns the running driver. A
    /// command that cannot start still ends through the translator's `finish`, with
    /// `.failedToStart`.
    static func start(_ spec: ChildSpec, backend: ProcessBackend, translator: Translator, state: Translator.State,
                      reporter: any DriverReporter) -> LineDriverRunner {
        let runner = LineDriverRunner(translator: translator, state: state, reporter: reporter)
        runner.attach(backend.startChild(spec, sinks: runner.sinks))
        return runner
    }

    /// The running driver of `tool`, a tool started before its job: every line it wrote so far
    /// goes through the translator in order, then each later one, and the driver ends after the
    /// tool. `nil` when a driver took the tool over already (a retry runs a tool of its own).
    static func takingOver<Kind: PreStartedToolLines>(_ tool: PreStartedTool<Kind>, translator: Translator, state: Translator.State,
                                                     reporter: any DriverReporter) -> LineDriverRunner? where Kind.Translator == Translator {
        guard let process = tool.takeOver() else { return nil }
        let runner = LineDriverRunner(translator: translator, state: state, reporter: reporter)
        tool.attach({ runner.line($0) }, afterReads: { runner.afterReads() })
        runner.attach(process)
        return runner
    }

    /// Where a process started for this runner sends its lines: stdout, stderr and fd 3.
    var sinks: ChildSinks {
        ChildSinks(stdout: .text { [self] in line(ToolLine(stream: .stdout, text: $0)) },
                   stderr: .text { [self] in line(ToolLine(stream: .stderr, text: $0)) },
                   channel: .text { [self] in line(ToolLine(stream: nil, text: $0)) },
                   afterReads: { [self] in afterReads() }, atMostEvery: Translator.handOnInterval,
                   // Lines read and not handed on yet, and what the job has not taken (rule 8a).
                   consumerBacklog: { [self] in reports.backlog + reporter.backlog })
    }

    /// Takes `process` as the tool's (one started with `sinks`, or one whose lines reach `line`
    /// and `afterReads` otherwise, as a pre-started tool's do: `takingOver`) and ends the driver after it.
    func attach(_ process: ChildProcess) {
        shared.withLock { $0.process = process }
        process.whenEnded { [self] outcome in
            // The translator's end may block (dpkg's commands): never on the poller's thread.
            // Named, or it would show in htop and ps -L as the poller it was started from.
            EngineThread.detach(named: "installtop-end") { [self] in
                end(after: outcome)
            }
        }
    }

    // MARK: - RunningDriver

    func stopAtSafePoint() {
        let process = deliver(shared: { shared in (translator.stopRequested(in: &shared.translation), shared.process) })
        if let process { translator.askToStop(process) }
    }

    /// Kills the tool's process tree, unless the translator refuses (`killRefusal`), whose
    /// reports then say why; the driver then ends when the tool does.
    func kill() {
        deliver(shared: { shared -> ([DriverReport], Void) in
            guard shared.killed == nil, let process = shared.process else { return ([], ()) }
            if let refusal = translator.killRefusal(in: shared.translation) { return (refusal, ()) }
            shared.killed = process.killTree()
            return ([], ())
        })
    }

    var outcome: UpdateRunOutcome {
        get async { await slot.outcome }
    }

    func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        slot.whenSettled(handler)
    }

    // MARK: - The tool's lines (on the poller's thread)

    /// One line the tool wrote; kept until the end of the poller's wake-up.
    func line(_ line: ToolLine) {
        shared.withLock { $0.unread.append(line) }
    }

    /// The poller has read all it could for now (at most every `handOnInterval`): the lines
    /// read since the last time become reports, which it hands on itself when nothing else is
    /// queued (the job only queues what they lead to). A flood's wake-up reads up to a
    /// megabyte: its lines are handed on `linesPerHandOn` at a time, so that their reports,
    /// and the job's work on them, never pile up in arrays of tens of thousands.
    func afterReads() {
        var more = true
        while more {
            let runsHere = shared.withLock { shared in
                let made = takeLines(&shared, atMost: Self.linesPerHandOn)
                more = shared.unreadTaken < shared.unread.count
                return !made.isEmpty && reports.enqueueToRunHere(made, joining: &shared.queuedReports, handOn)
            }
            if runsHere { reports.runHere() }
        }
    }

    /// The reports of the lines read and not yet taken (at most `limit` of them), in order.
    private func takeLines(_ shared: inout Shared, atMost limit: Int = .max) -> [DriverReport] {
        guard shared.unreadTaken < shared.unread.count else { return [] }
        var reports: [DriverReport] = []
        let end = shared.unread.count - shared.unreadTaken > limit ? shared.unreadTaken + limit : shared.unread.count
        translator.translate(shared.unread[shared.unreadTaken..<end], in: &shared.translation, into: &reports)
        if end == shared.unread.count {
            shared.unread.removeAll(keepingCapacity: true)
            shared.unreadTaken = 0
        } else {
            shared.unreadTaken = end
        }
        return reports
    }

    // MARK: - The end

    /// On a thread of its own, once the process ended and the poller handed on its last lines:
    /// carries out the end the translator plans, one piece of work at a time, each decided on
    /// what the one before found.
    private func end(after outcome: UpdateRunOutcome) {
        translator.toolEnded()
        var work = deliver(shared: { shared in
            Self.said(translator.end(after: outcome, killed: shared.killed, in: &shared.translation))
        })
        while let next = work {
            let finding = translator.perform(next, say: { [self] make in deliver(make) })
            work = deliver { state in Self.said(translator.end(after: finding, of: outcome, in: &state)) }
        }
        // The job hears of the end after everything the tool and the end said.
        reports.enqueue { [slot] in slot.settle(outcome) }
    }

    // MARK: - Delivering

    /// Makes reports under the runner's lock, after those of the lines read before (so they
    /// leave in the order things happened), and queues them there; `reports` hands them on
    /// later, on the engine's pool, together with those made before them that it has not taken
    /// yet (the job then announces only the latest progress of an update, see
    /// `DriverReporter.report(contentsOf:)`). Never runs reports on the calling thread.
    func deliver(_ make: (inout Translator.State) -> [DriverReport]) {
        deliver { state in (make(&state), ()) }
    }

    /// `deliver`, for a maker that also returns something for its caller.
    func deliver<Result>(_ make: (inout Translator.State) -> ([DriverReport], Result)) -> Result {
        deliver(shared: { shared in make(&shared.translation) })
    }

    private func deliver<Result>(shared make: (inout Shared) -> ([DriverReport], Result)) -> Result {
        shared.withLock { shared in
            let read = takeLines(&shared)
            let (made, result) = make(&shared)
            if !read.isEmpty || !made.isEmpty { reports.enqueue(read + made, joining: &shared.queuedReports, handOn) }
            return result
        }
    }

    /// A plan's reports, to deliver, and its work, for the caller.
    private static func said(_ plan: ToolEndPlan<Translator.EndWork>) -> ([DriverReport], Translator.EndWork?) {
        (plan.reports, plan.work)
    }

    /// Hands reports to the job.
    private var handOn: @Sendable ([DriverReport]) -> Void {
        { [reporter] in reporter.report(contentsOf: $0) }
    }
}
