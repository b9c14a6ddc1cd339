import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import InstallDrivers
import InstallHistory
import Monitor
import MonitorRuntime
import Synchronization

/// One `installtop run` (or `demo`, or `apt`): the jobs on a queue of real processes, the
/// history recorder, and the chosen output, until every job is done.
struct RunSession {
    let jobs: [RunnableJob]
    /// Driver sessions (Ansible): each declares its own jobs as it runs (rule 27).
    let sessions: [any SessionDriver]
    let options: RunOptions
    /// `run`'s and `demo`'s `--concurrency` and `--abort-grace`; `nil` for `apt` and `ansible`.
    let scheduling: SchedulingOptions?
    /// The monitor shows it instead of "no jobs" until the first job is queued.
    let startingNote: String?
    /// The termination signals the caller took before this run handles them (`installtop apt
    /// --yes`): without a terminal they are this run's, the first an abort, a second its force.
    let earlierSignals: EarlierSignals?
    /// The root `u` in the monitor's history view undoes runs in, for a kind whose runs are
    /// undone in the engine's own root (`installtop run`, `apt …`); `nil`: this engine has none,
    /// and such a kind says so.
    let engineRoot: EngineRoot?

    init(jobs: [RunnableJob], sessions: [any SessionDriver] = [], options: RunOptions, scheduling: SchedulingOptions? = nil,
         startingNote: String? = nil, earlierSignals: EarlierSignals? = nil, engineRoot: EngineRoot? = nil) {
        self.engineRoot = engineRoot
        self.jobs = jobs
        self.sessions = sessions
        self.options = options
        self.scheduling = scheduling
        self.startingNote = startingNote
        self.earlierSignals = earlierSignals
    }

    init(manifest: Manifest, options: RunOptions, scheduling: SchedulingOptions) {
        self.init(jobs: manifest.jobs.map(RunnableJob.init), options: options, scheduling: scheduling)
    }

    /// Runs everything and returns the exit status. Returns only after every child is gone,
    /// also the processes updates left behind (adopted and reaped: `AdoptedChildren`).
    func run() -> ExitStatus {
        runReportingDeclines().status
    }

    /// `run()`, also naming the jobs whose plan the operator declined (nothing of them ran).
    func runReportingDeclines() -> (status: ExitStatus, declined: [String]) {
        AdoptedChildren.adopt()
        defer { AdoptedChildren.reapAll() }
        let warnings = Warnings()
        // A job's run slot is found by its name: the queue's descriptor has the name it was given.
        let slots = JobRunSlots(jobs)
        let host = EngineHost(scheduling: scheduling, history: options.history, warnings: warnings, runSlots: slots.slot(for:))
        let queue = host.queue
        let tally = JobResultTally(queue: queue)
        let summaryJobs = SummaryJobs(queue: queue)
        let history = host.history

        let mode = OutputMode(options: options)
        let status: ExitStatus
        switch mode {
        case .json:
            let writer = JSONEventWriter(output: .stdout, includeLogs: options.jsonLogs)
            queue.subscribe { writer.handle($0) }
            runHeadless(queue, earlier: earlierSignals)
            status = tally.exitStatus
        case .monitor:
            status = runMonitor(queue, tally: tally, summaryJobs: summaryJobs, history: monitorHistory(history, warnings: warnings),
                                undo: undo(on: queue, slots: slots))
        case .plain:
            status = runPlain(queue, tally: tally, summaryJobs: summaryJobs, earlier: earlierSignals)
        }
        for name in tally.declined { StandardOutput.stderr.line("installtop: \(name): not run: its plan was declined") }
        for warning in warnings.all { StandardOutput.stderr.line("installtop: \(warning)") }
        return (status, tally.declined)
    }

    /// Plain lines while the jobs run, then the summary table; returns the exit status.
    private func runPlain(_ queue: JobQueue, tally: JobResultTally, summaryJobs: SummaryJobs, earlier: EarlierSignals?) -> ExitStatus {
        let reporter = PlainReporter(output: .stdout, sanitizer: TextEnvironment.sanitizer)
        queue.subscribe { reporter.handle($0) }
        runHeadless(queue, earlier: earlier)
        let status = tally.exitStatus
        Self.printSummary(of: summaryJobs.jobs, status: status)
        return status
    }

    /// The results table and why the exit status is `status`, on stdout.
    static func printSummary(of jobs: [JobState], status: ExitStatus) {
        // Before the table, so that the summary still ends with the counts and the exit status.
        let width = OutputWidth.current()
        if let restarts = RestartAdviceText.summary(of: jobs, sanitizer: TextEnvironment.sanitizer, width: width) { StandardOutput.stdout.write(restarts) }
        StandardOutput.stdout.line(RunSummary.text(of: jobs, status: status, sanitizer: TextEnvironment.sanitizer, width: width))
    }

    /// Plain and JSON modes: submit, relay signals into aborts, wait for the queue to drain.
    ///
    /// Signals become aborts once every job is submitted (and begun where a slot was free): an
    /// abort between a job's queueing and its start would end it "not started" without its
    /// driver, while apt, running dpkg since its hook said go (`--yes`), went on with no one
    /// watching. One that comes earlier waits until then, and so do those the caller took
    /// (`earlier`). One that comes once the queue is idle finds nothing to abort, and says
    /// nothing (the caller's relay hands it on here until it returns).
    private func runHeadless(_ queue: JobQueue, earlier earlierSignals: EarlierSignals?) {
        let signals = Mutex<(submitted: Bool, over: Bool, count: Int, last: Int32)>((false, false, 0, SIGINT))
        let take: @Sendable (Int32) -> Void = { signal in
            let count = signals.withLock { signals -> Int? in
                guard !signals.over else { return nil }
                signals.count += 1
                signals.last = signal
                return signals.submitted ? signals.count : nil
            }
            if let count { Self.abort(queue, after: signal, count: count) }
        }
        let relay = SignalRelay { signal, _ in take(signal) }
        defer { relay.cancel() }
        if let earlier = earlierSignals?.takeOver(take), earlier.count > 0 {
            signals.withLock { signals in
                signals.count += earlier.count
                if signals.count == earlier.count { signals.last = earlier.last }
            }
        }
        // `installtop run … | head`: nobody reads any more, which is no reason to leave the
        // children behind (nor to die of SIGPIPE, which main ignores): abort as for SIGHUP.
        StandardOutput.stdout.whenReaderGone {
            StandardOutput.stderr.line("installtop: stdout was closed: aborting every job")
            queue.abortAll(force: false)
        }
        submitJobs(to: queue)
        let waiting = signals.withLock { signals -> (signal: Int32, count: Int)? in
            signals.submitted = true
            return signals.count > 0 ? (signals.last, signals.count) : nil
        }
        if let waiting { Self.abort(queue, after: waiting.signal, count: waiting.count) }
        Self.waitUntilIdle(queue)
        signals.withLock { $0.over = true }
    }

    /// The `count`th termination signal (`signal`): the first aborts every job gracefully, a
    /// later one kills the running updates.
    private static func abort(_ queue: JobQueue, after signal: Int32, count: Int) {
        if count == 1 {
            StandardOutput.stderr.line("installtop: \(name(of: signal)): aborting every job (again to kill at once)")
            queue.abortAll(force: false)
        } else {
            StandardOutput.stderr.line("installtop: \(name(of: signal)) again: killing the running updates")
            queue.abortAll(force: true)
        }
    }

    /// The monitor on the terminal; plain lines when the terminal cannot host it.
    private func runMonitor(_ queue: JobQueue, tally: JobResultTally, summaryJobs: SummaryJobs, history: MonitorHistory,
                            undo: (@Sendable (Int) -> String?)?) -> ExitStatus {
        // The terminal takes the termination signals while the monitor runs. Before it does,
        // they are the monitor's once it runs (or the plain run's when it cannot start); after
        // it gave them back, while the jobs it aborted end, each is an abort as without a
        // terminal. With the default disposition they ended installtop there, jobs running.
        let outside = EarlierSignals()
        let relay = SignalRelay { signal, _ in outside.take(signal) }
        defer { relay.cancel() }
        do {
            let link = undo.map { LocalEngineLink(queue: queue, history: history, undo: $0) } ?? LocalEngineLink(queue: queue, history: history)
            let outcome = try MonitorSession.run(
                link: link, themeOption: options.theme,
                exitWhenDone: options.exitWhenDone, startingNote: startingNote,
                onStart: { submitJobs(to: queue) },
                signalsBeforeStart: { outside.takeAll() })
            // From here each signal is an abort; those the relay read only now (one that came
            // just before the terminal took over) are the first.
            let aborts = Mutex(0)
            let late = outside.takeOver { signal in
                Self.abort(queue, after: signal, count: aborts.withLock { $0 += 1; return $0 })
            }
            if late.count > 0 { Self.abort(queue, after: late.last, count: aborts.withLock { $0 += late.count; return $0 }) }
            // q quits at once when no job is queued or running; a driver session that has not
            // declared its jobs yet (Ansible checking the playbook) must not then run on unseen.
            if outcome == .quit { queue.abortAll(force: false) }
            // Quitting waited for the aborted jobs; clean-ups may have emptied the queue.
            Self.waitUntilIdle(queue)
            // Nothing is left to abort: a signal now changes nothing, and says nothing.
            _ = outside.takeOver { _ in }
            // What the screen showed goes with the alternate screen: leave the results, as
            // --plain prints them, on the normal one (jobs cleaned up with `c` included).
            let status = outcome == .quitWhileRunning ? ExitStatus.aborted : tally.exitStatus
            let jobs = summaryJobs.jobs
            if !jobs.isEmpty { Self.printSummary(of: jobs, status: status) }
            return status
        } catch let error as ThemeError {
            StandardOutput.stderr.line("installtop: \(error)")
            return .invalidUsage
        } catch {
            StandardOutput.stderr.line("installtop: cannot start the monitor (\(error)); printing lines instead")
            return runPlain(queue, tally: tally, summaryJobs: summaryJobs, earlier: outside)
        }
    }

    /// Queues every job; they were validated when the manifest was loaded or the plan made.
    func submitJobs(to queue: JobQueue) {
        for job in jobs {
            do {
                try queue.submit(name: job.name, operation: job.operation, updates: job.updates, stopOnFailure: job.stopOnFailure,
                                 driver: job.driver, awaitsConfirmation: job.needsConfirmation, undoOf: job.undoOf)
            } catch {
                StandardOutput.stderr.line("installtop: job \(job.name) was not queued: \(error)")
            }
        }
        for session in sessions { queue.submitSession(session) }
    }

    /// Blocks the calling (main) thread until the queue is idle; the engine runs on the pool.
    static func waitUntilIdle(_ queue: JobQueue) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await queue.waitUntilIdle()
            done.signal()
        }
        done.wait()
    }

    /// What `u` in the monitor's history view does: queue the run's undo on `queue` awaiting
    /// the operator's yes (its plan dialog), or say why not, by the run's kind: in `engineRoot`
    /// or in the root the run recorded, as the kind says.
    private func undo(on queue: JobQueue, slots: JobRunSlots) -> (@Sendable (Int) -> String?)? {
        let queuing = UndoQueuing(queue: queue, history: options.history, slots: slots, engineRoot: engineRoot,
                                  warn: { StandardOutput.stderr.line("installtop: \($0)") })
        return { run in
            do throws(UndoRefusal) {
                _ = try queuing.queueUndo(of: run)
                return nil
            } catch {
                return "nothing was undone: \(error.message)"
            }
        }
    }

    /// What the monitor gets of the history: the rows' source and the median durations of the
    /// manifest's updates (fewer when they cannot be read, with a warning).
    private func monitorHistory(_ source: HistorySource, warnings: Warnings) -> MonitorHistory {
        switch source {
        case .off(let reason):
            return .off(reason)
        case .store(let store):
            return MonitorHistory(store: store, updateIDs: jobs.lazy.flatMap(\.updates).map(\.id),
                                  halfWay: EngineHost.halfWayPackages(administrativeDirectory:)) { error in
                warnings.add("no ETAs from history: \(error)")
            }
        }
    }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`: how the messages about a termination signal name it.
    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(signal)"
        }
    }
}
