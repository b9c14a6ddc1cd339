import Dispatch
import InstallEngine
import Monitor
import Synchronization

/// The engine in this process: the monitor subscribes to the `JobQueue` and calls it directly.
public final class LocalEngineLink: EngineLink {
    let queue: JobQueue
    let history: MonitorHistory
    /// Where the history is read: SQLite may wait for the disk or another writer's lock, and
    /// the monitor's thread must go on drawing and answering keys meanwhile. Serial, so two
    /// quick `h` presses read one after the other, in order.
    private let historyReader = DispatchQueue(label: "installtop.monitor.history")
    private let mailbox = Mutex<Mailbox?>(nil)
    private let subscription = Mutex<EventSubscription?>(nil)

    public init(queue: JobQueue, history: MonitorHistory) {
        self.queue = queue
        self.history = history
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
        historyReader.async { [history] in
            mailbox.post(.monitor(history.load(limit)))
        }
    }

    public func stop() {
        subscription.withLock { $0?.cancel() }
    }
}
