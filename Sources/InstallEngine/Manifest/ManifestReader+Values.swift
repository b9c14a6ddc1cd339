#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import YAMLNodes
import TextBasics

/// Typed reading of single nodes. Each reader reports what it expected and what it found, at
/// the node's position, and returns `nil` when the node is not usable.
extension ManifestReader {
    /// What a duration looks like, for every message about one.
    static let durationExpectation = "expected a duration such as 500ms, 10s, 5m or 2h"

    /// installtop sets these for every child (Documentation/MANIFESTS-AND-DRIVERS.md); a manifest cannot change them.
    static let reservedEnvironment: Set<String> = [
        "INSTALLTOP_PROGRESS_FD", "INSTALLTOP_UPDATE_ID", "INSTALLTOP_OPERATION", "INSTALLTOP_JOB",
    ]

    // MARK: - Mappings

    /// The known keys of the mapping `node`; unknown keys are reported (with the closest known
    /// key when one is a plausible typo) and left out. `nil`, reported, when `node` is not a
    /// mapping.
    mutating func fields(of node: Node, in section: ManifestSection) -> ManifestFields? {
        guard case .mapping(let mapping) = node else {
            report("expected \(section.expectation); got \(describe(node))", at: node)
            return nil
        }
        var fields = ManifestFields(position: SourcePosition(node))
        for (key, value) in pairs(of: mapping) {
            guard case .scalar(let scalar) = key else {
                report("expected a key name; got \(describe(key))", at: key)
                continue
            }
            let name = scalar.string
            guard section.allowedKeys.contains(name) else {
                report(UnknownKeyMessage.text(for: name, phrase: section.phrase, allowed: section.allowedKeys), at: key)
                continue
            }
            fields.add(name, key: key, value: value)
        }
        return fields
    }

    /// The pairs of `mapping` with YAML merge keys (`<<: *anchor`) resolved: keys written in
    /// the mapping win over merged ones, and earlier merged mappings over later ones.
    mutating func pairs(of mapping: Node.Mapping) -> [(key: Node, value: Node)] {
        var result: [(key: Node, value: Node)] = []
        var merged: [(key: Node, value: Node)] = []
        for (key, value) in mapping {
            guard key.keyTagName == .merge else {
                result.append((key, value))
                continue
            }
            switch value {
            case .mapping(let source):
                merged += pairs(of: source)
            case .sequence(let sources):
                for source in sources {
                    if case .mapping(let source) = source {
                        merged += pairs(of: source)
                    } else {
                        report("expected a mapping to merge; got \(describe(source))", at: source)
                    }
                }
            default:
                report("expected a mapping or a list of mappings to merge; got \(describe(value))", at: value)
            }
        }
        var names = Set(result.compactMap { $0.key.scalar?.string })
        for pair in merged where pair.key.scalar.map({ names.insert($0.string).inserted }) ?? true {
            result.append(pair)
        }
        return result
    }

    /// The value of `name`; reports `missing key` at the mapping when it is absent.
    mutating func required(_ name: String, in fields: ManifestFields, section: ManifestSection) -> Node? {
        guard let node = fields[name] else {
            report("missing key `\(name)` \(section.phrase)", at: fields.position)
            return nil
        }
        return node
    }

    // MARK: - Scalars

    /// `~`, `null` or nothing at all.
    func isNull(_ node: Node) -> Bool {
        // Only these plain scalars can resolve to null: the rest need no resolving.
        guard let scalar = node.scalar, Self.nullSpellings.contains(scalar.string) else { return false }
        return node.tagName == .null
    }

    /// YAML's spellings of null (the empty scalar included).
    private static let nullSpellings: Set<String> = ["", "~", "null", "Null", "NULL"]

    /// The text of any scalar but null: `2024` and `yes` are read as written, since the source
    /// text is kept exactly.
    mutating func string(_ node: Node) -> String? {
        guard let scalar = node.scalar, !isNull(node) else {
            report("expected a string; got \(describe(node))", at: node)
            return nil
        }
        return scalar.string
    }

    mutating func nonEmptyString(_ node: Node) -> String? {
        guard let text = string(node) else { return nil }
        guard !text.isEmpty else {
            report("expected a non-empty string; got \(describe(node))", at: node)
            return nil
        }
        return text
    }

    /// Only YAML booleans (`true`, `false`, `yes`, `no`, `on`, `off` in any usual case).
    mutating func boolean(_ node: Node) -> Bool? {
        if node.tagName == .bool, let value = node.bool { return value }
        report("expected true or false; got \(describe(node))", at: node)
        return nil
    }

    /// YAML integers (`3`, `4_200_000`, `0x10`) of at least `minimum`.
    mutating func integer(_ node: Node, atLeast minimum: Int) -> Int? {
        if node.tagName == .int, let value = node.int, value >= minimum { return value }
        report("expected an integer of at least \(minimum); got \(describe(node))", at: node)
        return nil
    }

    /// The value whose `name` is the node's text, exactly (case matters).
    mutating func choice<Value>(_ node: Node, among values: [Value], named name: (Value) -> String) -> Value? {
        if node.tagName == .str, let text = node.scalar?.string, let value = values.first(where: { name($0) == text }) {
            return value
        }
        report("expected \(Self.alternatives(values.map(name))); got \(describe(node))", at: node)
        return nil
    }

    /// See `DurationParser`: `30` is refused, the unit is never guessed.
    mutating func duration(_ node: Node) -> Duration? {
        if let text = node.scalar?.string, let duration = DurationParser.parse(text) { return duration }
        report("\(Self.durationExpectation); got \(describe(node))", at: node)
        return nil
    }

    /// A duration longer than zero, or `none` (inner `nil`) for no limit. Outer `nil`: invalid.
    mutating func timeout(_ node: Node) -> Duration?? {
        if node.tagName == .str, node.scalar?.string == "none" { return .some(nil) }
        guard let duration = duration(node) else { return nil }
        guard duration > .zero else {
            report("expected a timeout longer than 0, or none for no limit; got \(describe(node))", at: node)
            return nil
        }
        return .some(duration)
    }

    // MARK: - Collections

    mutating func stringList(_ node: Node) -> [String]? {
        guard case .sequence(let sequence) = node else {
            report("expected a list of strings; got \(describe(node))", at: node)
            return nil
        }
        var strings: [String] = []
        var complete = true
        for item in sequence {
            if let text = string(item) { strings.append(text) } else { complete = false }
        }
        return complete ? strings : nil
    }

    /// A non-empty argv list (numbers such as `[sleep, 5]` are read as their text), or a
    /// non-blank string for `/bin/sh -c`.
    mutating func command(_ node: Node) -> UpdateCommand? {
        let expectation = "expected a command (a list of arguments or a string)"
        switch node {
        case .sequence(let sequence):
            guard let first = sequence.first else {
                report("\(expectation); got an empty list", at: node)
                return nil
            }
            guard let arguments = stringList(node) else { return nil }
            guard !arguments[0].isEmpty else {
                report("expected a program name; got an empty string", at: first)
                return nil
            }
            return .argv(arguments)
        case .scalar(let scalar) where !isNull(node):
            guard !scalar.string.allSatisfy(\.isWhitespace) else {
                report("\(expectation); got \(describe(node))", at: node)
                return nil
            }
            return .shell(scalar.string)
        default:
            report("\(expectation); got \(describe(node))", at: node)
            return nil
        }
    }

    /// Names must be non-empty without `=`; values are any scalar's text. What is valid is
    /// returned even when some entries were reported.
    mutating func environment(_ node: Node) -> [String: String]? {
        guard case .mapping(let mapping) = node else {
            report("expected a mapping of environment variables; got \(describe(node))", at: node)
            return nil
        }
        var environment: [String: String] = [:]
        for (key, value) in pairs(of: mapping) {
            guard let name = string(key) else { continue }
            guard !name.isEmpty, !name.contains("="), !name.contains("\0") else {
                report("invalid environment variable name `\(name)`: it must be non-empty and contain no `=`", at: key)
                continue
            }
            guard !Self.reservedEnvironment.contains(name) else {
                report("`\(name)` is set by installtop for every update and cannot be changed", at: key)
                continue
            }
            if let text = string(value) { environment[name] = text }
        }
        return environment
    }

    /// An existing directory; `~` is the home folder and relative paths start at the
    /// manifest's folder. Returned absolute and standardized (no `.` or `..`).
    mutating func directory(_ node: Node) -> String? {
        guard let text = nonEmptyString(node) else { return nil }
        let expanded = PathText.expandingTilde(text)
        let base = URL(fileURLWithPath: folder, isDirectory: true)
        let path = URL(fileURLWithPath: expanded, relativeTo: base).standardizedFileURL.path
        guard let kind = FileKind.of(path) else {
            report("workdir `\(path)` does not exist", at: node)
            return nil
        }
        guard kind == .folder else {
            report("workdir `\(path)` is not a directory", at: node)
            return nil
        }
        return path
    }

    // MARK: - Describing what was found

    /// What the node is, for the `got …` half of a message (`Node.messageDescription`).
    func describe(_ node: Node) -> String { node.messageDescription }

    /// `a or b`, `a, b or c`.
    static func alternatives(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
