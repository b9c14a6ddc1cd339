import YAMLNodes

/// What a manifest may make the loader do. YAML aliases (`*name`) and merge keys (`<<`) let a
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

    /// Walks `root` as the reader will, aliases and merge keys expanded, and stops at the first
    /// limit passed.
    /// - Throws: one error at the node where the limit was passed (for an alias, where its anchor
    ///   is defined: the composed tree keeps no position for the alias itself), naming the limit.
    static func checkExpansion(of root: Node, file: String) throws(ManifestErrors) {
        var count = 0
        if let problem = walk(root, depth: 1, count: &count) {
            throw ManifestErrors([ManifestError(file: file, line: problem.position.line, column: problem.position.column,
                                                message: problem.message)])
        }
    }

    private static func walk(_ node: Node, depth: Int, count: inout Int) -> (position: SourcePosition, message: String)? {
        count += 1
        if count > maximumExpandedNodes {
            return (SourcePosition(node), "the manifest is too large once its aliases (*) and merge keys (<<) are expanded: "
                + "more than \(maximumExpandedNodes.formatted()) nodes")
        }
        if depth > maximumDepth {
            return (SourcePosition(node), "the manifest nests deeper than \(maximumDepth) levels (aliases expanded)")
        }
        switch node {
        case .mapping(let mapping):
            for pair in mapping {
                if let problem = walk(pair.key, depth: depth + 1, count: &count) ?? walk(pair.value, depth: depth + 1, count: &count) {
                    return problem
                }
            }
        case .sequence(let sequence):
            for item in sequence {
                if let problem = walk(item, depth: depth + 1, count: &count) { return problem }
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
