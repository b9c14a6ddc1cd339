import DequeModule

/// The last lines of an update's output as the history stores them (text, bounded in lines and
/// in bytes per line) so a chatty or binary-spewing installer cannot grow installtop's memory
/// or database. The engine's live tail of `OutputLine`s is `OutputTail`.
struct HistoryOutputTail: Sendable, Hashable {
    /// Lines kept.
    static let lineLimit = 200
    /// Longer lines are cut to this many bytes (on a character boundary) and marked with "…".
    static let lineByteLimit = 4096

    /// The lines kept, oldest first.
    private(set) var lines: Deque<String> = []

    mutating func append(_ line: String) {
        if lines.count == Self.lineLimit { lines.removeFirst() }
        lines.append(Self.bounded(line))
    }

    /// The lines, oldest first, joined with "\n".
    var text: String { lines.joined(separator: "\n") }

    private static func bounded(_ line: String) -> String {
        guard line.utf8.count > lineByteLimit else { return line }
        var cut = ""
        var bytes = 0
        for character in line {
            bytes += character.utf8.count
            if bytes > lineByteLimit - 3 { break }
            cut.append(character)
        }
        return cut + "…"
    }
}
