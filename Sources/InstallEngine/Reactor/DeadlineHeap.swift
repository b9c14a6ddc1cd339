/// The pending timers of a `Reactor`, nearest deadline first: a binary min-heap of
/// (deadline, id). A cancelled timer stays in the heap until it comes up, and the reactor skips
/// it then (its id is no longer among the live timers): cancelling costs nothing here.
struct DeadlineHeap {
    struct Item {
        var deadline: ContinuousClock.Instant
        var id: UInt64
    }

    private var items: [Item] = []

    var isEmpty: Bool { items.isEmpty }

    /// The nearest deadline, or `nil` when the heap is empty.
    var first: Item? { items.first }

    mutating func insert(_ item: Item) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].deadline < items[parent].deadline else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the nearest deadline, or `nil` when the heap is empty.
    mutating func popFirst() -> Item? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let first = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, items[left].deadline < items[smallest].deadline { smallest = left }
            if right < items.count, items[right].deadline < items[smallest].deadline { smallest = right }
            guard smallest != parent else { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    mutating func removeAll() { items.removeAll() }
}
