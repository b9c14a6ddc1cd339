#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The first line of an asciicast v2 recording: the terminal's size when it began, when it
/// began, the environment that matters to a player (`TERM`, `SHELL`), and a title.
public struct AsciicastHeader: Sendable, Hashable {
    /// Columns and rows of the terminal when the recording began.
    public var width: Int
    public var height: Int
    /// Seconds since 1970 (UTC) when it began; `nil` when the file does not say.
    public var timestamp: Int?
    public var environment: [String: String] = [:]
    public var title: String?

    /// The header of a recording that begins at `date` on a `width`×`height` terminal, with the
    /// variables of `environment` a player uses (`TERM`, `SHELL`) and no others.
    public static func beginning(
        at date: Date, width: Int, height: Int, environment: [String: String], title: String?
    ) -> AsciicastHeader {
        AsciicastHeader(
            width: width, height: height, timestamp: Int(date.timeIntervalSince1970),
            environment: environment.filter { playerVariables.contains($0.key) }, title: title)
    }

    /// The environment variables a player uses, the only ones a header keeps.
    static let playerVariables: Set<String> = ["TERM", "SHELL"]

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
