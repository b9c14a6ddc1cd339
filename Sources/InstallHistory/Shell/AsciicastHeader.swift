/// The first line of an asciicast v2 recording: the terminal's size when it began, when it
/// began, the environment that matters to a player (`TERM`, `SHELL`), and a title.
public struct AsciicastHeader: Sendable, Hashable {
    /// Columns and rows of the terminal when the recording began.
    public var width: Int
    public var height: Int
    /// Seconds since 1970 (UTC) when it began; `nil` when the file does not say.
    public var timestamp: Int?
    public var environment: [String: String]
    public var title: String?

    public init(width: Int, height: Int, timestamp: Int?, environment: [String: String] = [:], title: String? = nil) {
        self.width = width
        self.height = height
        self.timestamp = timestamp
        self.environment = environment
        self.title = title
    }

    /// The header as one JSON line (without its newline), keys in a fixed order.
    public var jsonLine: String {
        var line = "{\"version\": 2, \"width\": \(width), \"height\": \(height)"
        if let timestamp { line += ", \"timestamp\": \(timestamp)" }
        let variables = environment.keys.sorted().map { "\(AsciicastText.json($0)): \(AsciicastText.json(environment[$0] ?? ""))" }
        line += ", \"env\": {\(variables.joined(separator: ", "))}"
        if let title { line += ", \"title\": \(AsciicastText.json(title))" }
        return line + "}"
    }
}
