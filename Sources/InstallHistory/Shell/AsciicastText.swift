/// How asciicast lines write their values: JSON strings and times.
enum AsciicastText {
    /// `text` as a JSON string: quotes, backslashes and every control character escaped
    /// (`\n`, `\u001b`…), everything else as UTF-8. `text` is valid Unicode (a `String`), so
    /// the result is valid JSON whatever bytes the text was decoded from.
    static func json(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Seconds with six decimals (`1.250000`), never in exponent form; negative times are 0.
    static func seconds(_ time: Double) -> String {
        let micros = Int64((max(0, time) * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
