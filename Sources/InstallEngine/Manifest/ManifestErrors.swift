/// Every problem found in a manifest: the loader reports them all, not just the first.
public struct ManifestErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// Sorted by line, then column; problems found at the same place keep the order in which
    /// they were found. Never empty when thrown by `ManifestLoader`.
    public let errors: [ManifestError]

    /// Sorts `errors` by position and drops exact repeats (a YAML alias or merge key can make
    /// the same node be checked more than once).
    public init(_ errors: [ManifestError]) {
        var seen = Set<ManifestError>()
        let unique = errors.filter { seen.insert($0).inserted }
        self.errors = unique.enumerated()
            .sorted { ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset) }
            .map(\.element)
    }

    // MARK: - Output

    /// One error per line, `FILE:LINE:COLUMN: MESSAGE`, no trailing newline.
    public var description: String { errors.map(\.description).joined(separator: "\n") }

    /// `1 error` or `N errors`: the line `installtop validate` prints after the list.
    public var countLine: String { errors.count == 1 ? "1 error" : "\(errors.count) errors" }
}
