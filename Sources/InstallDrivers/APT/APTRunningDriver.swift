import Foundation
import Glibc
import InstallEngine
import RestartScan
import Synchronization

/// One apt-get transaction as it runs: its process, the pure `APTRunState` its lines go
/// through, and what happens after it ends (dpkg's final state, the repair after a forced stop).
final class APTRunningDriver: RunningDriver {
    private struct State {
        var run: APTRunState
        var process: ChildProcess?
        /// What a forced stop killed.
        var killed: [ProcessTree.Member]?
        /// The reports queued last, which later ones join until `reports` takes them.
        var queuedReports: SerialWorkBatch<DriverReport>?
        /// apt's lines read since the last hand-over (`stream` nil: Status-Fd), in order; read
        /// by `APTRunState` only then (`takeLines`), so a wake-up of the poller for a line or
        /// two costs a copy, not the whole path.
        var unread: [(stream: StandardStream?, text: String)] = []
        /// How many of `unread` were taken already (`takeLines` takes a flood's in pieces).
        var unreadTaken = 0
    }

    private let plan: APTPlan
    private let aptGet: String
    private let reporter: any DriverReporter
    private let state: Mutex<State>
    private let slot = OutcomeSlot()
    /// Hands reports on in the order they were made (from apt's lines, a stop request and the
    /// repair), with no lock held. The poller hands on those of apt's lines itself when the
    /// queue is idle (the job only queues callbacks: the poller never waits for what a report
    /// leads to); the others never run reports on their threads.
    private let reports = SerialWorkQueue()

    /// The least time between two hand-overs of apt's lines to the job: apt and dpkg write a
    /// package's lines in a dozen small writes, each a wake-up of the poller, and handing each
    /// on woke the job's delivery thread as often (most of installtop's CPU during a
    /// transaction). It paces the reading too (`ChildSinks.afterReadsInterval`): 25 ms, less
    /// than the monitor's frame interval (33 ms), took installtop's share of a 200-package
    /// install from 2.1–3.5 % of apt's and dpkg's CPU (10 ms) to 1.5–1.7 %. The reports of a
    /// stop request queued behind held lines wait at most as long; a flood is not held back.
    static let handOnInterval: Duration = .milliseconds(25)

    private init(plan: APTPlan, aptGet: String, reporter: any DriverReporter, rebootListBefore: Set<String>? = nil) {
        self.plan = plan
        self.aptGet = aptGet
        self.reporter = reporter
        let before = rebootListBefore ?? Self.rebootList(at: plan.environment.rebootPackagesPath)
        state = Mutex(State(run: APTRunState(plan: plan, rebootListBefore: before)))
    }

    /// Takes over `transaction`, which apt runs already (its hook gave `plan`): every line it
    /// kept goes through the driver in order, then each later one.
    static func adopt(_ transaction: APTHookTransaction, process: ChildProcess, plan: APTPlan, aptGet: String,
                      reporter: any DriverReporter) -> APTRunningDriver {
        let driver = APTRunningDriver(plan: plan, aptGet: aptGet, reporter: reporter, rebootListBefore: transaction.rebootListBefore)
        driver.state.withLock { $0.process = process }
        transaction.attach({ line in
            if let stream = line.stream { driver.outputLine(line.text, on: stream) } else { driver.statusLine(line.text) }
        }, afterReads: { driver.afterReads() })
        Task.detached(executorPreference: EngineTaskExecutor.shared) { await driver.finish(after: process) }
        return driver
    }

    static func start(plan: APTPlan, aptGet: String, jobName: String, backend: ProcessBackend,
                      reporter: any DriverReporter) -> APTRunningDriver {
        let driver = APTRunningDriver(plan: plan, aptGet: aptGet, reporter: reporter)
        let commandLine = APTCommandLine(request: plan.job.request, aptGet: aptGet)
        var environment = plan.environment.commandEnvironment
        environment["INSTALLTOP_OPERATION"] = plan.job.request.operation.name
        environment["INSTALLTOP_JOB"] = jobName
        let spec = ChildSpec(command: .argv(plan.environment.command(commandLine.transaction)), environment: environment)
        let process = backend.startChild(spec, sinks: ChildSinks(
            stdout: .text { driver.outputLine($0, on: .stdout) },
            stderr: .text { driver.outputLine($0, on: .stderr) },
            channel: .text { driver.statusLine($0) },
            afterReads: { driver.afterReads() }, atMostEvery: handOnInterval))
        driver.state.withLock { $0.process = process }
        Task.detached(executorPreference: EngineTaskExecutor.shared) { await driver.finish(after: process) }
        return driver
    }

    // MARK: - RunningDriver

    func stopAtSafePoint() {
        let process = deliver { state in (state.run.requestStop(), state.process) }
        // SIGINT to apt-get alone: it finishes the package it is on and starts no other
        // (PACKAGES.md); SIGTERM would leave dpkg's database interrupted.
        process?.interrupt()
    }

    func kill() {
        state.withLock { state in
            guard state.killed == nil, let process = state.process else { return }
            state.killed = process.killTree()
        }
    }

    var outcome: UpdateRunOutcome {
        get async { await slot.outcome }
    }

    // MARK: - apt-get's lines (its sinks, on the poller's thread)

    /// One Status-Fd line (fd 3).
    private func statusLine(_ line: String) {
        state.withLock { $0.unread.append((nil, line)) }
    }

    /// One line apt-get or dpkg printed.
    private func outputLine(_ line: String, on stream: StandardStream) {
        state.withLock { $0.unread.append((stream, line)) }
    }

    /// The poller has read all it could for now (at most every `handOnInterval`): the lines
    /// read since the last time become reports, which it hands on itself when nothing else is
    /// queued (the job only queues what they lead to). A flood's wake-up reads up to a
    /// megabyte: its lines are handed on `linesPerHandOn` at a time, so that their reports,
    /// and the job's work on them, never pile up in arrays of tens of thousands.
    private func afterReads() {
        var more = true
        while more {
            let runsHere = state.withLock { state in
                let made = takeLines(&state, atMost: Self.linesPerHandOn)
                more = state.unreadTaken < state.unread.count
                return !made.isEmpty && reports.enqueueToRunHere(made, joining: &state.queuedReports, handOn)
            }
            if runsHere { reports.runHere() }
        }
    }

    /// How many of apt's lines `afterReads` hands on at a time.
    private static let linesPerHandOn = 512

    /// The reports of the lines read and not yet taken (at most `limit` of them), in order. A
    /// Status-Fd line the tracker could not read is counted on the job.
    private func takeLines(_ state: inout State, atMost limit: Int = .max) -> [DriverReport] {
        guard state.unreadTaken < state.unread.count else { return [] }
        var reports: [DriverReport] = []
        // Read once for all the lines taken together: they were all printed before it is read,
        // so it says the same to each, and a `stat` per finished package was a tenth of the
        // cost of a flood of Status-Fd lines.
        var rebootList: Set<String>?
        let readRebootList = { [plan] in
            if let rebootList { return rebootList }
            let read = Self.rebootList(at: plan.environment.rebootPackagesPath)
            rebootList = read
            return read
        }
        let end = state.unread.count - state.unreadTaken > limit ? state.unreadTaken + limit : state.unread.count
        for line in state.unread[state.unreadTaken..<end] {
            if let stream = line.stream {
                state.run.outputLine(line.text, on: stream, into: &reports)
                continue
            }
            let ignoredBefore = state.run.tracker.ignoredLines
            state.run.statusLine(line.text, rebootList: readRebootList, into: &reports)
            reports += repeatElement(.ignoredLine, count: state.run.tracker.ignoredLines - ignoredBefore)
        }
        if end == state.unread.count {
            state.unread.removeAll(keepingCapacity: true)
            state.unreadTaken = 0
        } else {
            state.unreadTaken = end
        }
        return reports
    }

    // MARK: - The end

    /// Waits for apt-get, repairs after a forced stop (or runs the triggers a graceful one
    /// left pending), reads dpkg's final state, then settles every package from it.
    private func finish(after process: ChildProcess) async {
        let outcome = await process.outcome
        // What the kill cut is known only now that everything apt said before it died has been
        // read: under load its Status-Fd lines may still have been in the pipe at the kill. The
        // package it was on, or, when apt was past every package (in trigger processing), the
        // last one it finished, whose success is still held back: the repair is shown on it.
        // (The poller took every line before the outcome settled; `deliver` takes any left.)
        // The cut packages get their verdicts at the end, from dpkg's state after the repair.
        let (killed, cut, cutAfter) = deliver { state -> ([DriverReport], ([ProcessTree.Member]?, [Int], (index: Int, verdict: DriverVerdict)?)) in
            guard let killed = state.killed else { return ([], (nil, [], nil)) }
            let cut = state.run.inFlight
            for index in cut { _ = state.run.markFinished(index) }
            return ([], (killed, cut, cut.isEmpty ? state.run.takeHeld() : nil))
        }
        // dpkg's commands block; they run off the concurrency pool.
        await Self.onThread { [self] in
            var forcedStop: APTForcedStop?
            if let killed {
                forcedStop = repair(cut: cut, after: cutAfter, killed: killed)
            } else if let last = state.withLock({ $0.run.stopRequested ? $0.run.takeHeld() : nil }) {
                runPendingTriggers(after: last)
            }
            let finalStates = APTPackageState.query(administrativeDirectory: plan.environment.administrativeDirectory)
            let rebootList = Self.rebootList(at: plan.environment.rebootPackagesPath)
            deliver { $0.run.aptEnded(outcome, plan: plan, finalStates: finalStates, rebootList: rebootList, forcedStop: forcedStop) }
        }
        // The job hears of the end after everything apt said: the outcome settles in turn.
        reports.enqueue { [slot] in slot.settle(outcome) }
    }

    /// After a forced stop (rule 25), as visible steps of the cut package (or, when apt was
    /// past every package, in trigger processing, of the last one it finished): dpkg's state
    /// right after the kill, then `APTRepair`'s `dpkg --configure -a`, `apt-get -f install`
    /// and checks. Every package is settled afterwards from dpkg's state then
    /// (`APTRunState.aptEnded`), told apart from the state the kill left.
    private func repair(cut: [Int], after finished: (index: Int, verdict: DriverVerdict)?, killed: [ProcessTree.Member]) -> APTForcedStop {
        let names = killed.map { "\($0.name) (\($0.pid))" }.joined(separator: ", ")
        // With nothing cut or held, the last package apt finished keeps the lines (output after
        // its verdict).
        let target = cut.first ?? finished?.index ?? state.withLock { $0.run.lastFinished }
        let repair = APTRepair(environment: plan.environment, aptGet: aptGet) { [self] report in
            sayRepair(report, on: target)
        }
        if let target {
            deliver { _ in [.update(index: target, .output(.stdout, "installtop: killed \(names.isEmpty ? "apt-get" : "apt-get, " + names)"))] }
        }
        // SIGKILL is not death: a dpkg still dying holds its database lock, and the repair
        // would find it locked.
        Self.waitUntilGone(killed, timeout: .seconds(30))
        // What the kill left, before the repair changes it: results keep the two apart.
        let statesAfterKill = APTPackageState.query(administrativeDirectory: plan.environment.administrativeDirectory)
        if let target {
            let left = plan.changes.filter { !(statesAfterKill[$0.package] ?? .notInstalled).isUntouched(by: $0) }
                .map { "\($0.package) \((statesAfterKill[$0.package] ?? .notInstalled).description)" }
            if !left.isEmpty {
                deliver { _ in [.update(index: target, .output(.stdout, "installtop: right after the kill dpkg had " + left.joined(separator: ", ")))] }
            }
        }
        let repaired = repair.afterForcedStop()
        return APTForcedStop(cut: cut, finishedBeforeKill: finished, statesAfterKill: statesAfterKill, repair: repaired)
    }

    /// After a graceful stop, on the last package apt finished: the triggers apt would have
    /// run at its end, by `APTRepair.pendingTriggers`.
    private func runPendingTriggers(after last: (index: Int, verdict: DriverVerdict)) {
        let repair = APTRepair(environment: plan.environment, aptGet: aptGet) { [self] report in
            sayRepair(report, on: last.index)
        }
        let outcome = repair.pendingTriggers()
        deliver { _ in [.updateFinished(index: last.index, APTRunState.verdict(last.verdict, repair: outcome, after: "apt stopped before its pending triggers"))] }
    }

    /// One thing a repair said, on update `index`. Its status texts, each step and the
    /// outcome, are the job's too: a repair acts on the whole root, also when the kill landed
    /// where no package was in flight (in trigger processing, between dpkg runs), and its
    /// outcome stays the job's last word.
    private func sayRepair(_ report: UpdateReport, on index: Int?) {
        deliver { state in
            var reports: [DriverReport] = index.map { [.update(index: $0, report)] } ?? []
            if case .message(let text) = report { reports += state.run.repairSaid(text) }
            return reports
        }
    }

    // MARK: - Helpers

    /// Makes reports under the state lock, after those of the lines read before (so they
    /// leave in the order things happened), and queues them there; `reports` hands them on
    /// later, on a thread of its own, together with those made before them that it has not
    /// taken yet (the job then announces only the latest progress of a package, see
    /// `DriverReporter.report(contentsOf:)`). A stop request or the repair never runs reports
    /// on its thread.
    private func deliver(_ make: (inout State) -> [DriverReport]) {
        deliver { state in (make(&state), ()) }
    }

    /// `deliver`, for a maker that also returns something for its caller.
    private func deliver<Result>(_ make: (inout State) -> ([DriverReport], Result)) -> Result {
        state.withLock { state in
            let read = takeLines(&state)
            let (made, result) = make(&state)
            if !read.isEmpty || !made.isEmpty { reports.enqueue(read + made, joining: &state.queuedReports, handOn) }
            return result
        }
    }

    /// Hands reports to the job.
    private var handOn: @Sendable ([DriverReport]) -> Void {
        { [reporter] in reporter.report(contentsOf: $0) }
    }

    /// The package names in Debian's `reboot-required.pkgs` list; empty when there is none.
    static func rebootList(at path: String) -> Set<String> {
        // Read after every package: most of the time there is no list, which `stat` says far
        // more cheaply than Foundation's failed read (an error built and cast each time).
        var status = stat()
        guard stat(path, &status) == 0,
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// Blocks until every one of `members` has exited (no such process, or a zombie whose
    /// locks and files are closed), or `timeout` passes.
    private static func waitUntilGone(_ members: [ProcessTree.Member], timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        func alive(_ pid: pid_t) -> Bool {
            guard Glibc.kill(pid, 0) == 0 || errno == EPERM else { return false }
            guard let stat = ProcFS().stat(of: pid) else { return false }
            return stat.state != "Z"
        }
        while members.contains(where: { alive($0.pid) }), ContinuousClock.now < deadline {
            usleep(10_000)
        }
    }

    private static func onThread(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                body()
                continuation.resume()
            }
        }
    }
}
