/// A theme file that cannot be used: where and why. The monitor shows it and goes on with the
/// other themes; `--theme` with a broken file is a usage error.
public struct ThemeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as given (or `built-in (name.yaml)`); empty when the problem is no file's (an
    /// unknown theme name), and then no position is shown.
    public var file: String
    /// 1-based; 1 for problems with the whole file.
    public var line: Int = 1
    public var column: Int = 1
    /// The dotted key the problem is about (`styles.failed.fg`); empty when it is the file.
    public var key: String = ""
    /// What was expected and what was found.
    public var message: String

    /// `themes/x.yaml:4:11: styles.failed.fg: expected a colour …`
    public var description: String {
        let prefix = file.isEmpty ? "" : "\(file):\(line):\(column): "
        return key.isEmpty ? prefix + message : prefix + key + ": " + message
    }
}
