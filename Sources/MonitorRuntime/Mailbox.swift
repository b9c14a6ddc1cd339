import Glibc
import InstallEngine
import Synchronization

/// Hands engine events from any thread to the monitor's loop: a `SubscriberOutbox` under a
/// lock plus a non-blocking self-pipe whose read end the loop `poll()`s. Only the first item
/// after a drain writes a byte, so a flood of events costs one wake-up per frame, not one per
/// event.
///
/// What waits is bounded, so a child flooding its output cannot put the loop minutes behind
/// the keyboard: the outbox coalesces each update's progress (the screen shows the latest),
/// and once more than `summariseAfter` bytes of events wait, an update's further output lines
/// become one stderr line saying how many the monitor did not get, followed by the newest
/// `tailLines` of them. Every other event is kept, in order; a snapshot (`post(contentsOf:)`)
/// is kept whole.
public final class Mailbox: Sendable {
    private let pending: Mutex<SubscriberOutbox<MailboxItem>>
    /// For `poll()`: readable while items wait.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// - Parameters:
    ///   - summariseAfter: bytes of events (output lines counted by their length) that may wait
    ///     before output lines are summarised.
    ///   - tailLines: while summarising, the newest lines of each update kept after its count
    ///     (the monitor's tail size: it shows the latest lines of a flood, as they are).
    /// - Throws: `MailboxError` when the pipe cannot be created.
    public init(summariseAfter: Int = 1 << 20, tailLines: Int = 1000) throws(MailboxError) {
        pending = Mutex(SubscriberOutbox(limit: summariseAfter, keepsNewest: tailLines))
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw MailboxError(errno: errno) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Adds an item; safe from any thread, never blocks.
    public func post(_ item: MailboxItem) {
        let wasEmpty = pending.withLock { pending -> Bool in
            let wasEmpty = pending.isEmpty
            if case .engine(let event) = item {
                pending.push(event, payload: item, size: Self.size(of: event))
            } else {
                pending.pushKept(item, size: 64)
            }
            return wasEmpty
        }
        if wasEmpty { wake() }
    }

    /// Adds items in one go and keeps them all (a snapshot arrives whole; it is the queue as
    /// it stands, nothing to coalesce), so the loop sees all of them or none.
    func post(contentsOf items: some Collection<MailboxItem>) {
        guard !items.isEmpty else { return }
        let wasEmpty = pending.withLock { pending -> Bool in
            let wasEmpty = pending.isEmpty
            for item in items {
                if case .engine(let event) = item {
                    pending.pushKept(item, size: Self.size(of: event))
                } else {
                    pending.pushKept(item, size: 64)
                }
            }
            return wasEmpty
        }
        if wasEmpty { wake() }
    }

    private func wake() {
        var byte: UInt8 = 1
        // A full pipe already wakes the loop: the result does not matter.
        _ = write(writeDescriptor, &byte, 1)
    }

    /// About what an event costs waiting: an output line its text, others a fixed amount.
    private static func size(of event: EngineEvent) -> Int {
        if case .output(let output) = event.kind { return 48 + output.line.utf8.count }
        return 96
    }

    /// Takes every waiting item, oldest first, and empties the pipe. The monitor's loop calls it
    /// on its own thread (as the board benchmark does); one reader at a time.
    public func drain() -> [MailboxItem] {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &bytes, bytes.count) > 0 {}
        let deliveries = pending.withLock { $0.take() }
        return deliveries.map { delivery in
            switch delivery {
            case .item(let item):
                return item
            case .linesNotShown(let update, let count):
                return .engine(EngineEvent(kind: .output(UpdateOutput.linesNotShown(update, count: count, reader: "the monitor"))))
            }
        }
    }
}
