import Synchronization

/// Elements waiting in one item of a `SerialWorkQueue`, which takes them all when it runs. Its
/// producer adds to it while that item is the queue's last and has not started
/// (`SerialWorkQueue.enqueue(_:joining:_:)`), so a burst costs one item and one hand-over.
public final class SerialWorkBatch<Element: Sendable>: Sendable {
    private let state: Mutex<(elements: [Element], ticket: UInt64)>

    init(_ elements: [Element]) {
        state = Mutex((elements, 0))
    }

    /// The ticket of the item that takes the batch.
    public var ticket: UInt64 { state.withLock { $0.ticket } }

    func setTicket(_ ticket: UInt64) {
        state.withLock { $0.ticket = ticket }
    }

    func append(contentsOf elements: some Collection<Element>) {
        state.withLock { $0.elements.append(contentsOf: elements) }
    }

    /// Everything added so far, in order; called once, when the item runs.
    func take() -> [Element] {
        state.withLock { state in
            defer { state.elements = [] }
            return state.elements
        }
    }
}
