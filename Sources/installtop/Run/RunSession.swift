import Dispatch
import Foundation
import Glibc
import InstallEngine
import InstallHistory
import Monitor

/// One `installtop run` (or `demo`): the manifest's jobs on a queue of real processes, the
/// history recorder, and the chosen output, until every job is done.
struct RunSession {
    let manifest: Manifest
    let options: RunOptions

    /// Runs everything and returns the exit status. Returns only after every child is gone.
    func run() -> ExitStatus {
        let configuration = EngineConfiguration(abortGraceOverride: options.abortGrace.map { .milliseconds(Int64($0 * 1000)) })
        let queue = JobQueue(backend: ProcessBackend(), concurrency: options.concurrency, configuration: configuration)
        let warnings = Warnings()
        let tally = JobResultTally(queue: queue)
        let history: MonitorHistory.Source =
            options.noHistory ? .off("history is off: --no-history") : attachHistory(to: queue, warnings: warnings)

        let mode = OutputMode(options: options)
        let status: ExitStatus
        switch mode {
        case .json:
            let writer = JSONEventWriter(output: .stdout, includeLogs: options.jsonLogs)
            queue.subscribe { writer.handle($0) }
            runHeadless(queue)
            status = tally.exitStatus
        case .monitor:
            status = runMonitor(queue, tally: tally, history: monitorHistory(history, warnings: warnings))
        case .plain:
            runPlain(queue)
            status = tally.exitStatus
        }
        for warning in warnings.all { StandardOutput.stderr.line("installtop: \(warning)") }
        return status
    }

    /// Plain lines while the jobs run, then the summary table.
    private func runPlain(_ queue: JobQueue) {
        let reporter = PlainReporter(output: .stdout, sanitizer: TextEnvironment.sanitizer)
        queue.subscribe { reporter.handle($0) }
        runHeadless(queue)
        StandardOutput.stdout.line(reporter.summary(of: queue.snapshot()))
    }

    /// Plain and JSON modes: submit, relay signals into aborts, wait for the queue to drain.
    private func runHeadless(_ queue: JobQueue) {
        let relay = SignalRelay { signal, count in
            if count == 1 {
                StandardOutput.stderr.line("installtop: \(Self.name(of: signal)): aborting every job (again to kill at once)")
                queue.abortAll(force: false)
            } else {
                StandardOutput.stderr.line("installtop: \(Self.name(of: signal)) again: killing the running updates")
                queue.abortAll(force: true)
            }
        }
        defer { relay.cancel() }
        submitJobs(to: queue)
        waitUntilIdle(queue)
    }

    /// The monitor on the terminal; plain lines when the terminal cannot host it.
    private func runMonitor(_ queue: JobQueue, tally: JobResultTally, history: MonitorHistory) -> ExitStatus {
        do {
            let quitWhileRunning = try MonitorSession.run(
                queue: queue, themeOption: options.theme, exitWhenDone: options.exitWhenDone, history: history
            ) { submitJobs(to: queue) }
            // Quitting waited for the aborted jobs; clean-ups may have emptied the queue.
            waitUntilIdle(queue)
            return quitWhileRunning ? .aborted : tally.exitStatus
        } catch let error as ThemeError {
            StandardOutput.stderr.line("installtop: \(error)")
            return .invalidUsage
        } catch {
            StandardOutput.stderr.line("installtop: cannot start the monitor (\(error)); printing lines instead")
            runPlain(queue)
            return tally.exitStatus
        }
    }

    /// Queues every job of the manifest; they were validated when it was loaded.
    func submitJobs(to queue: JobQueue) {
        for job in manifest.jobs {
            do {
                try queue.submit(name: job.name, operation: job.operation, updates: job.updates, stopOnFailure: job.stopOnFailure)
            } catch {
                StandardOutput.stderr.line("installtop: job \(job.name) was not queued: \(error)")
            }
        }
    }

    /// Blocks the calling (main) thread until the queue is idle; the engine runs on the pool.
    func waitUntilIdle(_ queue: JobQueue) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await queue.waitUntilIdle()
            done.signal()
        }
        done.wait()
    }

    /// Records the queue's events in the history store; returns the store, or why there is no
    /// history (with a warning).
    private func attachHistory(to queue: JobQueue, warnings: Warnings) -> MonitorHistory.Source {
        let path = options.historyDb ?? HistoryStore.defaultPath()
        let store: HistoryStore
        do {
            store = try HistoryStore(path: path)
            try store.recoverInterruptedEntries()
            let recorder = HistoryRecorder(store: store)
            queue.subscribe { event in
                do { try recorder.record(event) } catch { warnings.add("history not recorded: \(error)") }
            }
        } catch {
            warnings.add("running without history: \(error)")
            return .off("history is unavailable: \(error)")
        }
        return .store(store)
    }

    /// What the monitor gets of the history: the rows' source and the median durations of the
    /// manifest's updates (fewer when they cannot be read, with a warning).
    private func monitorHistory(_ source: MonitorHistory.Source, warnings: Warnings) -> MonitorHistory {
        switch source {
        case .off(let reason):
            return .off(reason)
        case .store(let store):
            return MonitorHistory(store: store, updateIDs: manifest.jobs.lazy.flatMap(\.updates).map(\.id)) { error in
                warnings.add("no ETAs from history: \(error)")
            }
        }
    }

    private static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(signal)"
        }
    }
}
