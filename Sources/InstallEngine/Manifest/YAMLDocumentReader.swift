import YAMLNodes

/// A reader that walks a composed YAML document (a manifest, a patch-night policy) and reports
/// each problem at its line and column instead of stopping at the first. The typed reading of
/// single nodes they share is here: each reports what it expected and what it found, at the
/// node's position, and returns `nil` when the node is not usable.
///
/// Documents are composed with `Resolver.basic` and checked by `ManifestLimits` first: plain
/// scalars are resolved here (`Node.tagName`), and YAML merge keys (`<<`) are resolved by
/// `pairs(of:)`.
public protocol YAMLDocumentReader {
    /// The kinds of mapping the document is made of.
    associatedtype Section: YAMLSection

    /// Records `message` at `position` of the document.
    mutating func report(_ message: String, at position: SourcePosition)
}

extension YAMLDocumentReader {
    public mutating func report(_ message: String, at node: Node) {
        report(message, at: SourcePosition(node))
    }

    // MARK: - Mappings

    /// The known keys of the mapping `node`; unknown keys are reported (with the closest known
    /// key when one is a plausible typo) and left out. `nil`, reported, when `node` is not a
    /// mapping.
    public mutating func fields(of node: Node, in section: Section) -> YAMLFields? {
        guard case .mapping(let mapping) = node else {
            report("expected \(section.expectation); got \(describe(node))", at: node)
            return nil
        }
        var fields = YAMLFields(position: SourcePosition(node))
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
    public mutating func pairs(of mapping: Node.Mapping) -> [(key: Node, value: Node)] {
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

    /// The value of `name`; reports `missing key` at the mapping when it is absent, and with
    /// `orNull` also at the key when it is written with no value (`hosts:`).
    public mutating func required(_ name: String, in fields: YAMLFields, section: Section, orNull: Bool = false) -> Node? {
        guard let node = fields[name], !(orNull && isNull(node)) else {
            report("missing key `\(name)` \(section.phrase)", at: fields.keyPosition(name) ?? fields.position)
            return nil
        }
        return node
    }

    // MARK: - Scalars

    /// `~`, `null` or nothing at all.
    public func isNull(_ node: Node) -> Bool {
        // Only these plain scalars can resolve to null: the rest need no resolving.
        guard let scalar = node.scalar, nullSpellings.contains(scalar.string) else { return false }
        return node.tagName == .null
    }

    /// The text of any scalar but null: `2024` and `yes` are read as written, since the source
    /// text is kept exactly.
    public mutating func string(_ node: Node) -> String? {
        guard let scalar = node.scalar, !isNull(node) else {
            report("expected a string; got \(describe(node))", at: node)
            return nil
        }
        return scalar.string
    }

    public mutating func nonEmptyString(_ node: Node) -> String? {
        guard let text = string(node) else { return nil }
        guard !text.isEmpty else {
            report("expected a non-empty string; got \(describe(node))", at: node)
            return nil
        }
        return text
    }

    /// Only YAML booleans (`true`, `false`, `yes`, `no`, `on`, `off` in any usual case).
    public mutating func boolean(_ node: Node) -> Bool? {
        if node.tagName == .bool, let value = node.bool { return value }
        report("expected true or false; got \(describe(node))", at: node)
        return nil
    }

    /// The value whose `name` is the node's text, exactly (case matters).
    public mutating func choice<Value>(_ node: Node, among values: [Value], named name: (Value) -> String) -> Value? {
        if node.tagName == .str, let text = node.scalar?.string, let value = values.first(where: { name($0) == text }) {
            return value
        }
        report("expected \(Self.alternatives(values.map(name))); got \(describe(node))", at: node)
        return nil
    }

    // MARK: - Collections

    /// A list of scalars' texts (`noun` names them in the message: `expected a list of names`);
    /// with `nonEmpty`, an empty list is reported too, and so is an empty item.
    public mutating func stringList(_ node: Node, nonEmpty: Bool = false, noun: String = "strings") -> [String]? {
        guard case .sequence(let sequence) = node, !(nonEmpty && sequence.isEmpty) else {
            report("expected a\(nonEmpty ? " non-empty" : "") list of \(noun); got \(describe(node))", at: node)
            return nil
        }
        var strings: [String] = []
        var complete = true
        for item in sequence {
            if let text = nonEmpty ? nonEmptyString(item) : string(item) { strings.append(text) } else { complete = false }
        }
        return complete ? strings : nil
    }

    /// A non-empty argv list (numbers such as `[sleep, 5]` are read as their text), or a
    /// non-blank string for `/bin/sh -c`.
    public mutating func command(_ node: Node) -> UpdateCommand? {
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

    // MARK: - Describing what was found

    /// What the node is, for the `got …` half of a message (`Node.messageDescription`).
    public func describe(_ node: Node) -> String { node.messageDescription }

    /// `a or b`, `a, b or c`.
    public static func alternatives(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}

/// YAML's spellings of null (the empty scalar included).
private let nullSpellings: Set<String> = ["", "~", "null", "Null", "NULL"]
