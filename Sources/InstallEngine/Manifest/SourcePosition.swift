import YAMLNodes

/// A 1-based line and column in a manifest or a policy.
public struct SourcePosition: Hashable, Sendable {
    public var line: Int
    public var column: Int

    /// Line 1, column 1: for problems with the whole file.
    public static let start = SourcePosition(line: 1, column: 1)

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Where `node` starts. Composed nodes always carry a mark; a node without one
    /// (built in code) counts as the start of the file.
    public init(_ node: Node) {
        self.init(line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    /// Moves past `scalar`: a newline starts the next line; anything else is one column
    /// (columns count Unicode scalars, like libyaml's marks).
    mutating func advance(past scalar: Unicode.Scalar) {
        if scalar == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }
}
