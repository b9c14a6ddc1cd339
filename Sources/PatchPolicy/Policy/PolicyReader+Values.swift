import InstallEngine
import YAMLNodes

extension PolicyReader {
    // MARK: - Mappings

    /// The known keys of `node`; an unknown key is reported with the keys the section takes and
    /// the nearest one, as manifests' are. `nil` (reported) when `node` is not a mapping.
    mutating func fields(of node: Node, in section: PolicySection) -> PolicyFields? {
        guard case .mapping(let mapping) = node else {
            report("expected \(section.expectation); got \(describe(node))", at: node.mark)
            return nil
        }
        var fields = PolicyFields(mark: node.mark ?? Mark(line: 1, column: 1))
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                report("expected a key name; got \(describe(key))", at: key.mark)
                continue
            }
            guard section.allowedKeys.contains(name) else {
                report(UnknownKeyMessage.text(for: name, phrase: section.phrase, allowed: section.allowedKeys), at: key.mark)
                continue
            }
            fields.add(name, key: key, value: value)
        }
        return fields
    }

    /// The value of `name`; reports `missing key` at the mapping when it is absent or empty.
    mutating func required(_ name: String, in fields: PolicyFields, section: PolicySection) -> Node? {
        guard let node = fields[name], !isNull(node) else {
            report("missing key `\(name)` \(section.phrase)", at: fields[name] == nil ? fields.mark : fields.keyMark(name))
            return nil
        }
        return node
    }

    // MARK: - Scalars

    /// `~`, `null` or nothing at all.
    func isNull(_ node: Node) -> Bool { node.scalar != nil && node.tag.name == .null }

    mutating func nonEmptyString(_ node: Node) -> String? {
        guard let scalar = node.scalar, !isNull(node), !scalar.string.isEmpty else {
            report("expected a non-empty string; got \(describe(node))", at: node.mark)
            return nil
        }
        return scalar.string
    }

    /// An integer in `range`; `what` names it in the message.
    mutating func integer(_ node: Node, in range: ClosedRange<Int>, what: String) -> Int? {
        if node.tag.name == .int, let value = node.int, range.contains(value) { return value }
        report("expected \(what) from \(range.lowerBound) to \(range.upperBound); got \(describe(node))", at: node.mark)
        return nil
    }

    /// Seconds of a duration written `30s`, `15m`, `2h`, `7d` or a sum (`1d12h`).
    mutating func duration(_ node: Node) -> Int? {
        if let text = node.scalar?.string, let duration = DurationParser.parse(text, units: [.seconds, .minutes, .hours, .days]) {
            return Int(duration.components.seconds)
        }
        report("expected a duration such as 30s, 15m, 2h or 7d; got \(describe(node))", at: node.mark)
        return nil
    }

    // MARK: - Collections

    mutating func stringList(_ node: Node, nonEmpty: Bool) -> [String]? {
        guard case .sequence(let sequence) = node, !(nonEmpty && sequence.isEmpty) else {
            report("expected a\(nonEmpty ? " non-empty" : "") list of names; got \(describe(node))", at: node.mark)
            return nil
        }
        var strings: [String] = []
        for item in sequence {
            guard let text = nonEmptyString(item) else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// A non-empty argv list, or a non-blank string for `/bin/sh -c`, as manifests take them.
    mutating func command(_ node: Node) -> UpdateCommand? {
        switch node {
        case .sequence(let sequence) where !sequence.isEmpty:
            return stringList(node, nonEmpty: true).map { .argv($0) }
        case .scalar(let scalar) where !isNull(node) && !scalar.string.allSatisfy(\.isWhitespace):
            return .shell(scalar.string)
        default:
            report("expected a command (a list of arguments or a string); got \(describe(node))", at: node.mark)
            return nil
        }
    }

    // MARK: - Describing what was found

    /// What the node is, for the `got …` half of a message, in the manifests' words; an empty
    /// list is said to be empty, since `expected a list of windows; got a list` would puzzle.
    func describe(_ node: Node) -> String {
        if let sequence = node.sequence, sequence.isEmpty { return "an empty list" }
        return node.messageDescription
    }
}
