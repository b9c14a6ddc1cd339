/// One problem in a manifest, with the place it was found.
///
/// Printed like a compiler diagnostic, `FILE:LINE:COLUMN: MESSAGE`, so editors and terminals
/// can jump to it.
public struct ManifestError: Sendable, Hashable, CustomStringConvertible {
    /// The manifest's path as it was given to the loader (not made absolute).
    public var file: String
    /// 1-based.
    public var line: Int
    /// 1-based, counted in Unicode scalars (as Yams counts them).
    public var column: Int
    /// What is wrong and what was expected, without the position.
    public var message: String

    /// `line` and `column` are 1-based.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: MESSAGE`
    public var description: String { "\(file):\(line):\(column): \(message)" }
}
