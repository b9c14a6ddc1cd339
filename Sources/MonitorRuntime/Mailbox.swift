import DequeModule
import Glibc
import InstallEngine
import Synchronization

/// Hands engine events from any thread to the monitor's loop: a locked list plus a
/// non-blocking self-pipe whose read end the loop `poll()`s. Only the first item after a drain
/// writes a byte, so a flood of events costs one wake-up per frame, not one per event.
///
/// What waits is bounded, so a child flooding its output cannot put the loop minutes behind
/// the keyboard: a progress event replaces the one of the same update still waiting (the
/// screen shows the latest), and an update's waiting output lines are kept in one slot that
/// holds at most `outputLimit` lines (older ones would leave the monitor's tail anyway).
/// Every other event is kept, in order.
public final class Mailbox: Sendable {
    /// One waiting entry; output lines of one update share one.
    private enum Slot {
        case item(MailboxItem)
        case output(job: Int, index: Int, lines: Deque<EngineEvent>)
    }

    private struct Pending {
        var slots: [Slot] = []
        /// Where each update's waiting progress event and output lines are in `slots`.
        var progressSlots: [UpdateKey: Int] = [:]
        var outputSlots: [UpdateKey: Int] = [:]
    }

    private let pending = Mutex(Pending())
    private let outputLimit: Int
    /// For `poll()`: readable while items wait.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// - Parameter outputLimit: output lines kept waiting per update (the monitor's tail size).
    /// - Throws: `MailboxError` when the pipe cannot be created.
    public init(outputLimit: Int) throws(MailboxError) {
        self.outputLimit = max(1, outputLimit)
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
        post(contentsOf: CollectionOfOne(item))
    }

    /// Adds items in one go, so the loop sees all of them or none (a snapshot arrives whole).
    func post(contentsOf items: some Collection<MailboxItem>) {
        guard !items.isEmpty else { return }
        let limit = outputLimit
        let wasEmpty = pending.withLock { pending -> Bool in
            let wasEmpty = pending.slots.isEmpty
            for item in items { Self.add(item, to: &pending, outputLimit: limit) }
            return wasEmpty
        }
        if wasEmpty {
            var byte: UInt8 = 1
            // A full pipe already wakes the loop: the result does not matter.
            _ = write(writeDescriptor, &byte, 1)
        }
    }

    private static func add(_ item: MailboxItem, to pending: inout Pending, outputLimit limit: Int) {
        guard case .engine(let event) = item else {
            pending.slots.append(.item(item))
            return
        }
        switch event.kind {
        case .progress(let progress):
            let key = progress.updateKey
            if let position = pending.progressSlots[key] {
                pending.slots[position] = .item(item)
            } else {
                pending.progressSlots[key] = pending.slots.count
                pending.slots.append(.item(item))
            }
        case .output(let output):
            let key = output.updateKey
            if let position = pending.outputSlots[key], case .output(_, _, var lines) = pending.slots[position] {
                // Free the slot's storage first, so appending does not copy it.
                pending.slots[position] = .item(item)
                if lines.count == limit { lines.removeFirst() }
                lines.append(event)
                pending.slots[position] = .output(job: output.job, index: output.index, lines: lines)
            } else {
                pending.outputSlots[key] = pending.slots.count
                pending.slots.append(.output(job: output.job, index: output.index, lines: [event]))
            }
        default:
            pending.slots.append(.item(item))
        }
    }

    /// Takes every waiting item, oldest first, and empties the pipe.
    func drain() -> [MailboxItem] {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &bytes, bytes.count) > 0 {}
        let slots = pending.withLock { pending in
            defer { pending = Pending() }
            return pending.slots
        }
        var items: [MailboxItem] = []
        items.reserveCapacity(slots.count)
        for slot in slots {
            switch slot {
            case .item(let item): items.append(item)
            case .output(_, _, let lines): items.append(contentsOf: lines.lazy.map { .engine($0) })
            }
        }
        return items
    }
}
