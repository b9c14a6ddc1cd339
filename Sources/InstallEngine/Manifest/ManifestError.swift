/// One problem in a manifest, with the place it was found.
///
/// Printed like a compiler diagnostic, `FILE:LINE:COLUMN: MESSAGE`, so editors and terminals
/// can jump to it; a problem with the file as a whole (it cannot be read) as `FILE: MESSAGE`.
public struct ManifestError: Sendable, Hashable, CustomStringConvertible {
    /// The manifest's path as it was given to the loader (not made absolute).
    public var file: String
    /// 1-based; 0 for a problem with the file as a whole.
    public var line: Int
    /// 1-based, counted in Unicode scalars (as libyaml counts them); 0 with `line` 0.
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

    /// A problem with the file as a whole, which has no position: it cannot be read.
    public init(file: String, message: String) {
        self.init(file: file, line: 0, column: 0, message: message)
    }

    /// Whether the problem is with the file as a whole rather than a place in it.
    public var isAboutTheWholeFile: Bool { line == 0 }

    /// `FILE:LINE:COLUMN: MESSAGE`, or `FILE: MESSAGE` for the file as a whole.
    public var description: String {
        isAboutTheWholeFile ? "\(file): \(message)" : "\(file):\(line):\(column): \(message)"
    }
}
