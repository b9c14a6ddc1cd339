import InstallEngine
import Monitor
import Synchronization

/// The engine in this process: the monitor subscribes to the `JobQueue` and calls it directly.
public final class LocalEngineLink: EngineLink {
    let queue: JobQueue
    let history: MonitorHistory
    /// Plans the undo of a run and queues it awaiting confirmation; returns why it did not.
    private let undoRun: @Sendable (_ run: Int) -> String?
    /// Where the history is read: SQLite may wait for the disk or another writer's lock, and
    /// the monitor's thread must go on drawing and answering keys meanwhile. Serial, so two
    /// quick `h` presses read one after the other, in order; on the blocking pool, not a
    /// thread of its own that would wait for the next key.
    private let historyReader = SerialWorkQueue(runningOn: .blockingPool)
    private let mailbox = Mutex<Mailbox?>(nil)
    private let subscription = Mutex<EventSubscription?>(nil)

    /// - Parameter undo: plans the undo of a job run and queues it on `queue` awaiting
    ///   confirmation, returning why it did not (shown in the status line); called off the
    ///   monitor's thread, since planning asks apt. By default there is no undo here, and `u`
    ///   says so.
    public init(queue: JobQueue, history: MonitorHistory,
                undo: @escaping @Sendable (_ run: Int) -> String? = { _ in "this monitor cannot undo runs (installtop apt undo RUN can)" }) {
        self.queue = queue
        self.history = history
        self.undoRun = undo
    }

    public var jobsOutliveMonitor: Bool { false }

    public func start(posting mailbox: Mailbox) {
        self.mailbox.withLock { $0 = mailbox }
        if !history.medianDurations.isEmpty { mailbox.post(.monitor(.historicalDurations(history.medianDurations))) }
        let events = queue.subscribe { mailbox.post(.engine($0)) }
        subscription.withLock { $0 = events }
        // The queue's replay is quick, and `run` starts the monitor before any job exists.
        mailbox.post(.ready)
    }

    public func perform(_ command: JobCommand) {
        guard let mailbox = mailbox.withLock({ $0 }) else { return }
        do {
            try queue.perform(command) { error in
                if let error { mailbox.post(.commandResult(error.description)) }
            }
        } catch {
            mailbox.post(.commandResult(error.description))
        }
    }

    public func submit(name: String, updates: [Update]) {
        do {
            try queue.submit(name: name, updates: updates)
        } catch {
            mailbox.withLock { $0 }?.post(.commandResult(error.description))
        }
    }

    /// Reads the rows on `historyReader` and posts them; returns at once.
    public func loadHistory(limit: Int) {
        guard let mailbox = mailbox.withLock({ $0 }) else { return }
        historyReader.enqueue { [history] in
            mailbox.post(.monitor(history.load(limit)))
        }
    }

    /// Reads the runs on `historyReader` and posts them; returns at once.
    public func loadJobRuns(limit: Int) {
        guard let mailbox = mailbox.withLock({ $0 }) else { return }
        historyReader.enqueue { [history] in
            mailbox.post(.monitor(history.loadRuns(limit)))
        }
    }

    /// Plans on `historyReader` (apt's planner takes a second or more; the monitor keeps
    /// drawing), in order with the history reads; returns at once.
    /// A run of this process's queue is never armed (only an engine's are, and `--confirm`'s
    /// own command): `K` says where armed runs are kept.
    public func keep(run: Int, onHost host: String?) {
        mailbox.withLock { $0 }?.post(.commandResult("installtop confirm --run \(run) keeps it"))
    }

    public func undo(run: Int) {
        guard let mailbox = mailbox.withLock({ $0 }) else { return }
        historyReader.enqueue { [undoRun] in
            if let refusal = undoRun(run) { mailbox.post(.commandResult(refusal)) }
        }
    }

    public func stop() {
        subscription.withLock { $0?.cancel() }
    }
}
