import InstallEngine
import Synchronization

/// Every event a queue published, in order, readable while the queue still runs (a test waits
/// for one before it acts).
final class RecordedEvents: Sendable {
    private let events = Mutex<[EngineEvent]>([])

    func add(_ event: EngineEvent) { events.withLock { $0.append(event) } }

    var all: [EngineEvent] { events.withLock { $0 } }
}
