import InstallEngine
import Monitor
import Synchronization

/// The engine in this process: the monitor subscribes to the `JobQueue` and calls it directly.
public final class LocalEngineLink: EngineLink {
    let queue: JobQueue
    let history: MonitorHistory
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

    public func loadHistory(limit: Int) {
        mailbox.withLock { $0 }?.post(.monitor(history.load(limit: limit)))
    }

    public func stop() {
        subscription.withLock { $0?.cancel() }
    }
}
