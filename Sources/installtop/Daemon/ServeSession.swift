import Dispatch
import EngineDaemon
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallEngine
import InstallHistory
import RestartScan
import Synchronization

/// One `installtop serve`: a queue of real processes, the history recorder, and the socket
/// server, until SIGTERM or SIGINT has aborted the jobs and they have all completed.
struct ServeSession {
    let socketPath: String
    let scheduling: SchedulingOptions
    let history: HistoryOptions
    /// How long a client may read nothing while events wait before it is closed.
    var idleReaderTimeout: Duration = .seconds(120)
    /// Who may watch without acting (`--watch-group`).
    var watchGroup: WatchGroup?
    /// The apt root the `undo` command's jobs act on and whose pending snapshot the engine
    /// keeps (`--apt-config`; this system's when `nil`).
    var aptConfig: String?
    /// Where the metrics textfile is written (Documentation/METRICS.md); `nil`: none.
    var metricsDirectory: String?

    /// Serves until stopped; returns the exit status (0 after an orderly stop, 1 when the
    /// engine could not start).
    func run() -> Int32 {
        let log = Self.log
        // Taken before anything starts: a SIGTERM while the engine is being set up (apt-config
        // runs then) is a stop once it is up, never the default death that left apt-config
        // running with no parent.
        let stopRequested = DispatchSemaphore(value: 0)
        let stop = Mutex<(@Sendable (Int32, Int) -> Void)?>(nil)
        // Ends what starting runs (apt-config) at a stop: it changes nothing.
        let starting = CommandCancellation()
        let relay = SignalRelay(signals: [SIGINT, SIGTERM]) { signal, count in
            if let stop = stop.withLock({ $0 }) { return stop(signal, count) }
            log("\(signal == SIGINT ? "SIGINT" : "SIGTERM") while starting: stopping")
            starting.cancel()
            stopRequested.signal()
        }
        defer { relay.cancel() }
        // Where observed jobs come from: the root's dpkg, as `apt-config dump` names it.
        let observed = EngineHost.observedSources(aptConfig: aptConfig, cancellation: starting)
        if starting.isCancelled {
            log("stopped before serving: nothing was started")
            return 0
        }
        let warnings = Warnings(echo: { log("warning: \($0)") })
        let slots = JobRunSlots()
        let host = EngineHost(scheduling: scheduling, history: history, warnings: warnings, runSlots: slots.slot(for:))
        // Submitted package jobs keep the versions they replace for undo (`undo/` beside the history).
        // An apt job naming no root is this engine's root's, as its pending snapshot is.
        let kinds = EngineHost.kinds(keeping: history, aptConfig: aptConfig)
        defer { kinds.removeFiles() }
        let queue = host.queue
        // `u` in an attached monitor's history view: the undo is planned here, where the
        // history and dpkg are, and waits for the monitor's yes.
        let undoing = UndoQueuing(queue: queue, history: history, slots: slots, engineRoot: EngineRoot(configFile: aptConfig),
                                  warn: { log("warning: \($0)") })
        // What an upgrade of the root would do, for `installtop pending` and the board: computed
        // again after every change of the root, whoever made it, and pushed to the clients.
        // Each pending version is dated by when this engine first listed it (the history keeps
        // it across restarts): the age a patch night's age gate reads.
        let pending = PendingSnapshotKeeper(queue: queue, aptConfig: aptConfig, log: { log("warning: \($0)") }, repairRun: { packages in
            guard case .store(let store) = host.history else { return nil }
            return try? store.newestAptRun(naming: packages)
        }, dating: { snapshot in
            guard case .store(let store) = host.history else { return snapshot.packages }
            return PendingAge.dated(snapshot, in: store, now: Date(), log: { log("warning: \($0)") })
        })
        // Commit-confirmed runs in this history are reverted at their deadline, also those armed
        // before this engine started (`--confirm`), and told to the clients.
        let historyDatabase = history.historyDb.map(EngineIdentity.absolute) ?? HistoryStore.defaultPath()
        let deadlines = history.noHistory ? nil : ConfirmDeadlineWatcher(
            historyDatabase: historyDatabase, executable: ProcFS().ownExecutable() ?? CommandLine.arguments[0], log: log)
        // Armed jobs submitted here (`PackageJob.confirm`) are armed once recorded.
        let armings: EngineArmings? = {
            guard case .store(let store) = host.history else { return nil }
            let armings = EngineArmings(store: store, historyDatabase: historyDatabase, log: log, armed: { deadlines?.lookNow() })
            // After the recorder, which subscribed first: the run is finished when it is armed.
            queue.subscribe { armings.handle($0) }
            return armings
        }()
        let server: EngineServer
        do {
            server = try EngineServer(queue: queue, history: host.history, options: ServerOptions(
                socketPath: socketPath, idleReaderTimeout: idleReaderTimeout, log: log, kinds: kinds, observed: observed,
                watchGroup: watchGroup,
                undo: { run in
                    do throws(UndoRefusal) {
                        return .success(try undoing.queueUndo(of: run))
                    } catch {
                        return .failure(WireError(.notUndoable, "nothing was undone: \(error.message)"))
                    }
                },
                beforeQueueing: { name, driver in
                    if let slot = EngineHost.runSlot(of: driver) { slots.register(slot, forJobNamed: name) }
                    armings?.register(driver, forJobNamed: name)
                },
                pending: pending, armed: deadlines,
                identity: identity(recording: host.history), halfWay: EngineHost.halfWayPackages(administrativeDirectory:)))
        } catch {
            StandardOutput.stderr.line("installtop: \(error)")
            return 1
        }
        queue.subscribe { Self.logLifecycle($0, log: log) }
        // Before the keeper starts: its first snapshot is in the first file.
        let metrics = metricsDirectory.map { MetricsTextfile(directory: $0, log: log) }
        if let metrics { log("metrics textfile: \(metrics.path)") }
        metrics?.start(queue: queue, pending: pending, armed: deadlines)
        pending.start()
        deadlines?.start()
        log("serving on \(socketPath) (pid \(getpid()), \(scheduling.concurrency) job\(scheduling.concurrency == 1 ? "" : "s") at once)")
        for source in observed.all { log(source.startNote) }

        let hangups = SignalRelay(signals: [SIGHUP]) { _, _ in
            log("SIGHUP ignored: the engine keeps running (stop it with SIGTERM)")
        }
        let stopping: @Sendable (Int32, Int) -> Void = { signal, count in
            let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
            if count == 1 {
                log("\(name): taking no new jobs, aborting every job (again to kill at once)")
                server.refuseSubmissions()
                queue.abortAll(force: false)
                stopRequested.signal()
            } else {
                log("\(name) again: killing the running updates")
                queue.abortAll(force: true)
            }
        }
        // A stop asked while starting is carried out now, as it would have been once up: a
        // client may have submitted since the socket was served.
        let stoppedWhileStarting = stop.withLock { stop -> Bool in
            stop = stopping
            return stopRequested.wait(timeout: .now()) == .success
        }
        if stoppedWhileStarting {
            server.refuseSubmissions()
            queue.abortAll(force: false)
        } else {
            stopRequested.wait()
        }
        deadlines?.stop()
        RunSession.waitUntilIdle(queue)
        metrics?.stop()
        pending.stop()
        server.stop()
        hangups.cancel()
        log("stopped; every job has completed and the socket is removed")
        return 0
    }

    /// What `about` says of this engine: `installtop apt` runs its job here only when it would
    /// record into the same history and act on the same apt root.
    private func identity(recording source: HistorySource) -> EngineIdentity {
        let recordsInto: String?
        if case .store = source { recordsInto = EngineIdentity.absolute(history.historyDb ?? HistoryStore.defaultPath()) } else { recordsInto = nil }
        return EngineIdentity(history: recordsInto,
                              aptConfig: EngineIdentity.aptRoot(given: aptConfig, environment: ProcessInfo.processInfo.environment))
    }

    /// One line on stderr, with the time.
    static let log: @Sendable (String) -> Void = { message in
        StandardOutput.stderr.line("\(RFC3339.string(from: Date())) installtop serve: \(message)")
    }

    private static func logLifecycle(_ event: EngineEvent, log: (String) -> Void) {
        switch event.kind {
        case .jobStarted(let start):
            log("job \(start.job) started")
        case .jobCompleted(let completion):
            log("job \(completion.job) completed: \(completion.result.shownResultCode.word)\(completion.result.rebootRequired ? ", reboot required" : "")")
        case .jobCleanedUp(let cleanUp):
            log("job \(cleanUp.job) cleaned up")
        default:
            break
        }
    }
}
