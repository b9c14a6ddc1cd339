import InstallEngine
import Synchronization

/// Collects engine events from a `JobQueue` subscription, for comparison with what clients got.
final class EventLog: Sendable {
    private let collected = Mutex<[EngineEvent]>([])

    var events: [EngineEvent] { collected.withLock { $0 } }

    var handler: @Sendable (EngineEvent) -> Void {
        { [self] event in collected.withLock { $0.append(event) } }
    }
}
