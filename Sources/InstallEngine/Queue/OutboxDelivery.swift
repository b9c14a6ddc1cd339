/// What a `SubscriberOutbox` hands its consumer, in order: an item as it was pushed, or the
/// count of an update's output lines the outbox summarised because the consumer fell behind.
public enum OutboxDelivery<Payload> {
    /// An event or other item as pushed (a progress event: the newest of its update at that place).
    case item(Payload)
    /// `count` output lines of `update` were not kept, in this place of the update's events.
    case linesNotShown(UpdateKey, count: Int)
}

extension OutboxDelivery: Sendable where Payload: Sendable {}
extension OutboxDelivery: Equatable where Payload: Equatable {}
