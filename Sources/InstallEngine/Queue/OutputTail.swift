import DequeModule

/// The last lines of an update's output, bounded so that a child flooding its output never
/// grows memory: older lines are dropped and counted.
public struct OutputTail: Sendable, Hashable {
    public private(set) var lines: Deque<OutputLine> = []
    /// How many lines were dropped from the front.
    public private(set) var droppedCount = 0
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    public mutating func append(_ line: OutputLine) {
        if lines.count == capacity {
            lines.removeFirst()
            droppedCount += 1
        }
        lines.append(line)
    }

    /// The newest line, if any.
    public var last: OutputLine? { lines.last }
}
