/// What waits to be sent to one client; shared between the engine's callback thread (events),
/// command handlers (replies) and the server's I/O thread (which sends it).
struct ClientOutbox {
    enum Subscription {
        case none
        /// The snapshot is being encoded; live events wait in `held`, in order.
        case replaying(held: [UInt8])
        case live
    }

    /// Bytes not yet taken by the I/O thread.
    var pending: [UInt8] = []
    /// Everything not yet written: `pending` plus what the I/O thread holds.
    var queuedBytes = 0
    /// `queuedBytes` past which the client is dropped.
    var limit: Int
    var subscription = Subscription.none
    /// Set when the client must go (dropped for its backlog); the I/O thread closes it.
    var dropReason: String?

    init(limit: Int) {
        self.limit = limit
    }

    /// Queues bytes: an event of a client still being sent its snapshot waits behind it, a
    /// reply goes out at once. Returns false (and marks the client dropped) when that passes
    /// the limit.
    mutating func enqueue(_ bytes: [UInt8], isEvent: Bool) -> Bool {
        guard dropReason == nil else { return false }
        let held: Int
        if case .replaying(let waiting) = subscription { held = waiting.count } else { held = 0 }
        guard queuedBytes + held + bytes.count <= limit else {
            dropReason = "more than \(limit >> 20) MiB of events behind: it stopped reading"
            pending = []
            subscription = .none
            return false
        }
        if isEvent, case .replaying(var waiting) = subscription {
            subscription = .live  // frees the held array's storage for appending in place
            waiting.append(contentsOf: bytes)
            subscription = .replaying(held: waiting)
        } else {
            pending.append(contentsOf: bytes)
            queuedBytes += bytes.count
        }
        return true
    }
}
