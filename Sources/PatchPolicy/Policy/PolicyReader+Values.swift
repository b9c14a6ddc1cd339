import InstallEngine
import YAMLNodes

/// The typed readings only policies have (the shared ones are `YAMLDocumentReader`'s).
extension PolicyReader {
    // MARK: - Scalars

    /// An integer in `range`; `what` names it in the message.
    mutating func integer(_ node: Node, in range: ClosedRange<Int>, what: String) -> Int? {
        if node.tagName == .int, let value = node.int, range.contains(value) { return value }
        report("expected \(what) from \(range.lowerBound) to \(range.upperBound); got \(describe(node))", at: node)
        return nil
    }

    /// Seconds of a duration written `30s`, `15m`, `2h`, `7d` or a sum (`1d12h`).
    mutating func duration(_ node: Node) -> Int? {
        if let text = node.scalar?.string, let duration = DurationParser.parse(text, units: [.seconds, .minutes, .hours, .days]) {
            return Int(duration.components.seconds)
        }
        report("expected a duration such as 30s, 15m, 2h or 7d; got \(describe(node))", at: node)
        return nil
    }
}
