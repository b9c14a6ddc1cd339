import Glibc
import InstallEngine
import Synchronization

/// Hands items from any thread to the monitor's loop: a locked list plus a non-blocking
/// self-pipe whose read end the loop `poll()`s. Only the first item after a drain writes a
/// byte, so a flood of events costs one wake-up per frame, not one per event.
///
/// Progress events for an update still waiting in the list are replaced by newer ones (the
/// screen only shows the latest); every other event is kept, in order.
final class Mailbox: Sendable {
    private struct Pending {
        var items: [MailboxItem] = []
        /// Where each update's waiting progress event is in `items`.
        var progressSlots: [UpdateSlot: Int] = [:]
    }

    private struct UpdateSlot: Hashable {
        var job: Int
        var index: Int
    }

    private let pending = Mutex(Pending())
    /// For `poll()`: readable while items wait.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// - Throws: `MailboxError` when the pipe cannot be created.
    init() throws(MailboxError) {
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
    func post(_ item: MailboxItem) {
        let wasEmpty = pending.withLock { pending -> Bool in
            let wasEmpty = pending.items.isEmpty
            if case .engine(let event) = item, case .progress(let job, let index, _, _, _) = event.kind {
                let slot = UpdateSlot(job: job, index: index)
                if let position = pending.progressSlots[slot] {
                    pending.items[position] = item
                    return wasEmpty
                }
                pending.progressSlots[slot] = pending.items.count
            }
            pending.items.append(item)
            return wasEmpty
        }
        if wasEmpty {
            var byte: UInt8 = 1
            // A full pipe already wakes the loop: the result does not matter.
            _ = write(writeDescriptor, &byte, 1)
        }
    }

    /// Takes every waiting item, oldest first, and empties the pipe.
    func drain() -> [MailboxItem] {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &bytes, bytes.count) > 0 {}
        return pending.withLock { pending in
            defer { pending = Pending() }
            return pending.items
        }
    }
}
