import Synchronization

/// Elements waiting in one item of a `SerialWorkQueue`, which takes them all when it runs. Its
/// producer adds to it while that item is the queue's last and has not started
/// (`SerialWorkQueue.enqueue(_:joining:_:)`), so a burst costs one item and one hand-over.
public final class SerialWorkBatch<Element: Sendable>: Sendable {
    private let elements: Mutex<[Element]>
    /// The ticket of the item that takes the batch.
    public let ticket: UInt64

    init(_ elements: [Element], ticket: UInt64) {
        self.elements = Mutex(elements)
        self.ticket = ticket
    }

    func append(contentsOf more: some Collection<Element>) {
        elements.withLock { $0.append(contentsOf: more) }
    }

    /// Everything added so far, in order; called once, when the item runs.
    func take() -> [Element] {
        elements.withLock { elements in
            defer { elements = [] }
            return elements
        }
    }
}
