import EngineWire
import InstallEngine

/// What waits to be sent to one client; shared between the engine's callback thread (events),
/// command handlers (replies) and the server's I/O thread (which takes it a chunk at a time).
///
/// Live events wait in a `SubscriberOutbox`, the one place their progress is coalesced and
/// their output summarised: a client that falls behind a flood is never dropped for it. Past
/// `summariseAfter` waiting bytes its output lines become a line on stderr saying how many it
/// did not get (`installtop: N lines of output skipped here: this client fell behind`, with
/// `notShown`), in their place, followed by the newest lines; every state change arrives, in
/// order. Only a client that reads
/// nothing for `ServerOptions.idleReaderTimeout` while something waits is closed (`stalled`).
struct ClientOutbox {
    enum Subscription {
        case none
        /// The snapshot is being sent; live events wait in the outbox behind it.
        case replaying
        case live
    }

    /// Bytes the I/O thread takes per turn at most: what it has not taken can still be
    /// coalesced, so a slow reader gets the newest state rather than a long queue.
    static let chunkSize = 256 << 10

    var subscription = Subscription.none
    /// Replies and snapshot lines not yet taken, which go before the events: before the
    /// client subscribed and while its snapshot is sent.
    private var ahead: [UInt8] = []
    private var events: SubscriberOutbox<[UInt8]>
    /// Replies the client is owed that another thread will queue later (a `submit` being
    /// planned, a `cleanup` waiting for its job): a client whose input ended is not closed
    /// while any is owed, or it would never get them.
    private(set) var repliesOwed = 0

    /// - Parameter summariseAfter: bytes of live events that may wait before output lines are
    ///   summarised.
    init(summariseAfter: Int) {
        // Progress too only once the client fell behind (64 KiB waiting): a client that keeps
        // up sees every phase, as before the outbox.
        events = SubscriberOutbox(limit: summariseAfter, keepsNewest: Self.newestLinesKept,
                                  coalescesProgressAfter: min(summariseAfter, 64 << 10))
    }

    /// While summarising, the newest lines of each update a client still gets after the count:
    /// an attached monitor's tail shows the latest lines of a flood.
    static let newestLinesKept = 100

    /// Something waits that the client may be sent now.
    var hasPending: Bool {
        if !ahead.isEmpty { return true }
        if case .live = subscription { return !events.isEmpty }
        return false
    }

    /// Nothing waits and no reply is owed: once its socket has taken the last bytes, a client
    /// that wants no events has had everything it asked for.
    var isSettled: Bool {
        repliesOwed == 0 && !hasPending
    }

    /// A reply will come later, queued by `enqueueOwedReply(_:)`.
    mutating func oweReply() {
        repliesOwed += 1
    }

    /// Queues a reply promised by `oweReply()` (as `enqueueReply(_:)`), in the same step that
    /// settles the debt, so the I/O thread never sees the client owed nothing with the reply
    /// not yet queued. One that was never owed is queued all the same, and the count stays at zero.
    mutating func enqueueOwedReply(_ bytes: [UInt8]) {
        repliesOwed = max(0, repliesOwed - 1)
        enqueueReply(bytes)
    }

    /// Queues a reply (or another line that is not an engine event): in order with the live
    /// events once the client is live, else ahead of them (before it subscribed, and while its
    /// snapshot is sent, as a reply is not held behind a snapshot).
    mutating func enqueueReply(_ bytes: [UInt8]) {
        if case .live = subscription {
            events.pushKept(bytes, size: bytes.count)
        } else {
            ahead.append(contentsOf: bytes)
        }
    }

    /// Queues lines of the client's snapshot, ahead of the live events.
    mutating func enqueueSnapshot(_ bytes: [UInt8]) {
        ahead.append(contentsOf: bytes)
    }

    /// Queues a live engine event (`line` is its encoding) for a subscribed client.
    mutating func enqueue(_ event: EngineEvent, line: [UInt8]) {
        if case .none = subscription { return }
        events.push(event, payload: line, size: line.count)
    }

    /// The client's snapshot is being sent: live events wait behind it until `finishSnapshot()`.
    mutating func startSnapshot() {
        subscription = .replaying
    }

    /// The snapshot's last line has been queued: the live events follow it.
    mutating func finishSnapshot() {
        subscription = .live
    }

    /// Takes the next bytes to write: what goes ahead, then live events up to `chunkSize`
    /// bytes, each count of lines not shown encoded as its `log` line.
    mutating func take() -> [UInt8] {
        var bytes: [UInt8] = []
        swap(&bytes, &ahead)
        if !bytes.isEmpty { events.consumerRead() }
        guard case .live = subscription, bytes.count < Self.chunkSize else { return bytes }
        for delivery in events.take(maxBytes: Self.chunkSize - bytes.count) {
            switch delivery {
            case .item(let line):
                bytes.append(contentsOf: line)
            case .linesNotShown(let update, let count):
                let note = UpdateOutput.linesNotShown(update, count: count, reader: "this client")
                bytes.append(contentsOf: EventCoding.line(EngineEvent(kind: .output(note))))
            }
        }
        return bytes
    }

    /// The client's socket took bytes: it reads, however slowly.
    mutating func consumerRead() {
        events.consumerRead()
    }

    /// Whether the client has read nothing for `patience` while events waited (see
    /// `SubscriberOutbox.stalled`); call it at least every second while something waits.
    mutating func stalled(now: ContinuousClock.Instant, patience: Duration) -> Bool {
        events.stalled(now: now, patience: patience)
    }
}
