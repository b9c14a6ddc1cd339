/// Where a theme came from, for `installtop themes` and for messages.
public enum ThemeSource: Sendable, Hashable, CustomStringConvertible {
    /// Embedded in the binary from the package's `Themes/` folder; the value is the file name.
    case builtIn(String)
    /// A file read at run time (a user theme, or `--theme PATH`).
    case file(String)

    /// `built-in (default.yaml)` or the file's path.
    public var description: String {
        switch self {
        case .builtIn(let file): return "built-in (\(file))"
        case .file(let path): return path
        }
    }
}
