import YAMLNodes

/// What a manifest (or a policy) may make the loader do. YAML aliases (`*name`) and merge keys (`<<`) let a
/// few hundred bytes stand for billions of nodes; every node they stand for is counted as if it
/// had been written out, and reading stops with a located error as soon as a limit is passed,
/// so a hostile file costs at most a bounded walk. Real manifests are far below every limit
/// (10,000 updates written out are about 60,000 nodes).
public enum ManifestLimits {
    /// The largest manifest file read, in bytes (16 MiB).
    public static let maximumFileSize = 16 * 1024 * 1024
    /// The most nodes (mappings, sequences, scalars) once aliases and merge keys are expanded.
    public static let maximumExpandedNodes = 1_000_000
    /// The deepest nesting of mappings and sequences, aliases expanded.
    public static let maximumDepth = 64

    /// The document of `yaml` (`nil` when it is empty), as every document a `YAMLDocumentReader`
    /// reads is composed: within every limit here, with `Resolver.basic`, so plain scalars are
    /// resolved by `Node.tagName` and duplicate keys found by text alone (`1` and `"1"` in one
    /// mapping are duplicates, as they have been since manifests were composed with Yams'
    /// `.basic`, to keep ICU's regular expressions from running). `noun` (`manifest`, `policy`)
    /// names the document in messages; `path` names the file.
    /// - Throws: the YAML syntax error alone, or one error naming the limit passed.
    public static func compose(yaml: String, path: String, noun: String = "manifest") throws(ManifestErrors) -> Node? {
        guard yaml.utf8.count <= maximumFileSize else {
            throw ManifestErrors([ManifestError(
                file: path, line: 1, column: 1,
                message: "the \(noun) is larger than \(maximumFileSize / 1024 / 1024) MiB, the most installtop reads")])
        }
        let root: Node?
        do {
            root = try YAMLNodes.compose(yaml: yaml, .basic)
        } catch {
            throw ManifestErrors([ManifestError(error, file: path)])
        }
        if let root { try checkExpansion(of: root, file: path, noun: noun) }
        return root
    }

    /// Walks `root` as the reader will, aliases and merge keys expanded, and stops at the first
    /// limit passed.
    /// - Throws: one error at the node where the limit was passed (for an alias, where its anchor
    ///   is defined: the composed tree keeps no position for the alias itself), naming the limit.
    static func checkExpansion(of root: Node, file: String, noun: String) throws(ManifestErrors) {
        var count = 0
        if let problem = walk(root, depth: 1, noun: noun, count: &count) {
            throw ManifestErrors([ManifestError(file: file, line: problem.position.line, column: problem.position.column,
                                                message: problem.message)])
        }
    }

    private static func walk(_ node: Node, depth: Int, noun: String, count: inout Int) -> (position: SourcePosition, message: String)? {
        count += 1
        if count > maximumExpandedNodes {
            return (SourcePosition(node), "the \(noun) is too large once its aliases (*) and merge keys (<<) are expanded: "
                + "more than \(maximumExpandedNodes.formatted()) nodes")
        }
        if depth > maximumDepth {
            return (SourcePosition(node), "the \(noun) nests deeper than \(maximumDepth) levels (aliases expanded)")
        }
        switch node {
        case .mapping(let mapping):
            for pair in mapping {
                if let problem = walk(pair.key, depth: depth + 1, noun: noun, count: &count) ?? walk(pair.value, depth: depth + 1, noun: noun, count: &count) {
                    return problem
                }
            }
        case .sequence(let sequence):
            for item in sequence {
                if let problem = walk(item, depth: depth + 1, noun: noun, count: &count) { return problem }
            }
        case .scalar:
            break
        }
        return nil
    }
}

private extension Int {
    /// `1,000,000`: digits in groups of three, without Foundation's locale.
    func formatted() -> String {
        let digits = Array(String(self))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
