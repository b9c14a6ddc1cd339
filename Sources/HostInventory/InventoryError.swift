/// Why an inventory or a `--limit` pattern could not be used, worded for the operator: the
/// file and line when there is one.
public struct InventoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The inventory file, or `--limit` for a pattern.
    public var source: String
    /// The 1-based line, when the problem has one.
    public var line: Int?
    public var message: String

    public init(source: String, line: Int? = nil, message: String) {
        self.source = source
        self.line = line
        self.message = message
    }

    public var description: String {
        "\(source)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}
