/// A registration for engine events; `cancel()` stops delivery (idempotent).
public final class EventSubscription: Sendable {
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// After this returns no further event is delivered to the handler, unless called from
    /// inside that handler, in which case the current event is the last.
    public func cancel() { onCancel() }
}
