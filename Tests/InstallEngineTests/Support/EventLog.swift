import InstallEngine

/// Collects engine events from a subscription, for assertions.
final class EventLog: Sendable {
    private let collected = LockedValue<[EngineEvent]>([])

    var events: [EngineEvent] { collected.value }
    var kinds: [EngineEvent.Kind] { events.map(\.kind) }

    var handler: @Sendable (EngineEvent) -> Void {
        { [collected] event in collected.update { $0.append(event) } }
    }

    /// The events about job `id`, in order.
    func kinds(ofJob id: Int) -> [EngineEvent.Kind] { events.filter { $0.job == id }.map(\.kind) }
}
