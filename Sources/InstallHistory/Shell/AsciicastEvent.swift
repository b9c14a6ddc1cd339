/// One event of an asciicast v2 recording: `[time, code, data]`.
public struct AsciicastEvent: Sendable, Hashable {
    /// What happened: what the program wrote (`o`), what was typed (`i`, which installtop does
    /// not record: passwords), the terminal resized (`r`, data `COLUMNSxROWS`), or a code this
    /// reader does not know, kept as it is.
    public enum Code: Sendable, Hashable {
        case output
        case input
        case resize
        case other(String)

        public init(_ text: String) {
            switch text {
            case "o": self = .output
            case "i": self = .input
            case "r": self = .resize
            default: self = .other(text)
            }
        }

        public var text: String {
            switch self {
            case .output: "o"
            case .input: "i"
            case .resize: "r"
            case .other(let text): text
            }
        }
    }

    /// Seconds since the recording began.
    public var time: Double
    public var code: Code
    public var data: String

    /// The event as one JSON line (without its newline): the time with microseconds.
    public var jsonLine: String {
        "[\(AsciicastText.seconds(time)), \(AsciicastText.json(code.text)), \(AsciicastText.json(data))]"
    }

    /// `COLUMNSxROWS` of a resize event; `nil` for another event or data that is not a size.
    public var size: (columns: Int, rows: Int)? {
        guard code == .resize else { return nil }
        let parts = data.split(separator: "x")
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]) else { return nil }
        return (columns, rows)
    }
}
