/// The tag YAML gives a plain scalar written without a tag: the rules of Yams' `Resolver.default`
/// (bool, int, float, merge, null, timestamp, value, in that order, else `str`), matched by hand.
///
/// Yams matches these rules with `NSRegularExpression`, which is ICU's regex engine; matching by
/// hand keeps ICU (its code and Unicode tables) out of the program. Every rule's pattern is ASCII
/// and anchored at both ends, so a text with anything else is a `str`.
enum PlainScalarTag {
    /// The tag of the plain scalar `text`.
    static func resolve(_ text: String) -> Tag.Name {
        let bytes = Array(text.utf8)
        if bytes.contains(where: { $0 >= 0x80 }) { return .str }
        return bytes.withUnsafeBufferPointer { text in
            if isBool(text) { return .bool }
            if isInt(text) { return .int }
            if isFloat(text) { return .float }
            if text.elementsEqual("<<".utf8) { return .merge }
            if isNull(text) { return .null }
            if isTimestamp(text) { return .timestamp }
            if text.elementsEqual("=".utf8) { return .value }
            return .str
        }
    }

    private typealias Text = UnsafeBufferPointer<UInt8>

    private static let boolSpellings: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
        "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
    ]
    private static let nullSpellings: Set<String> = ["", "~", "null", "Null", "NULL"]

    private static func isBool(_ text: Text) -> Bool { text.count <= 5 && boolSpellings.contains(String(decoding: text, as: UTF8.self)) }
    private static func isNull(_ text: Text) -> Bool { text.count <= 4 && nullSpellings.contains(String(decoding: text, as: UTF8.self)) }

    // MARK: - Numbers

    /// `[-+]?0b[0-1_]+ | [-+]?0o?[0-7_]+ | [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+ | [-+]?[1-9][0-9_]*(:[0-5]?[0-9])+`
    private static func isInt(_ text: Text) -> Bool {
        let body = Text(rebasing: text[signEnd(text)...])
        guard let first = body.first else { return false }
        if first == UInt8(ascii: "0") {
            let rest = body.dropFirst()
            if rest.isEmpty { return true }
            switch rest.first {
            case UInt8(ascii: "b"): return rest.count > 1 && rest.dropFirst().allSatisfy { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") || $0 == underscore }
            case UInt8(ascii: "x"): return rest.count > 1 && rest.dropFirst().allSatisfy { isHexDigit($0) || $0 == underscore }
            case UInt8(ascii: "o"): return rest.count > 1 && rest.dropFirst().allSatisfy(isOctalOrUnderscore)
            default: return rest.allSatisfy(isOctalOrUnderscore)
            }
        }
        guard isDigit(first) else { return false }
        let end = body.dropFirst().firstIndex { !isDigit($0) && $0 != underscore } ?? body.endIndex
        if end == body.endIndex { return true }
        return sexagesimalEnd(body, from: end) == body.endIndex
    }

    /// `[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)? | \.[0-9_]+([eE][-+][0-9]+)?
    /// | [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)`
    private static func isFloat(_ text: Text) -> Bool {
        let signed = signEnd(text) > text.startIndex
        let body = Text(rebasing: text[signEnd(text)...])
        guard let first = body.first else { return false }
        if first == UInt8(ascii: ".") {
            let rest = Text(rebasing: body.dropFirst())
            if ["inf", "Inf", "INF"].contains(where: { rest.elementsEqual($0.utf8) }) { return true }
            if signed { return false }
            if ["nan", "NaN", "NAN"].contains(where: { rest.elementsEqual($0.utf8) }) { return true }
            let digitsEnd = rest.firstIndex { !isDigit($0) && $0 != underscore } ?? rest.endIndex
            guard digitsEnd > rest.startIndex else { return false }
            return digitsEnd == rest.endIndex || exponentEnds(rest, at: digitsEnd, signRequired: true)
        }
        guard isDigit(first) else { return false }
        var index = body.dropFirst().firstIndex { !isDigit($0) && $0 != underscore } ?? body.endIndex
        if index < body.endIndex, body[index] == UInt8(ascii: ":") {
            guard let end = sexagesimalEnd(body, from: index), end < body.endIndex, body[end] == UInt8(ascii: ".") else { return false }
            return body[(end + 1)...].allSatisfy { isDigit($0) || $0 == underscore }
        }
        if index < body.endIndex, body[index] == UInt8(ascii: ".") {
            index = body[(index + 1)...].firstIndex { !isDigit($0) && $0 != underscore } ?? body.endIndex
        }
        return index == body.endIndex || exponentEnds(body, at: index, signRequired: false)
    }

    /// Whether `text` from `index` on is `[eE][-+][0-9]+` (the sign optional unless `signRequired`).
    private static func exponentEnds(_ text: Text, at index: Int, signRequired: Bool) -> Bool {
        guard text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") else { return false }
        var digits = index + 1
        if digits < text.endIndex, text[digits] == UInt8(ascii: "-") || text[digits] == UInt8(ascii: "+") {
            digits += 1
        } else if signRequired {
            return false
        }
        return digits < text.endIndex && text[digits...].allSatisfy(isDigit)
    }

    /// Where `(:[0-5]?[0-9])+` starting at `start` ends, or `nil` when it does not match there.
    private static func sexagesimalEnd(_ text: Text, from start: Int) -> Int? {
        var index = start
        var groups = 0
        while index < text.endIndex, text[index] == UInt8(ascii: ":") {
            let digitsEnd = text[(index + 1)...].firstIndex { !isDigit($0) } ?? text.endIndex
            switch digitsEnd - index - 1 {
            case 1: break
            case 2 where text[index + 1] <= UInt8(ascii: "5"): break
            default: return nil
            }
            index = digitsEnd
            groups += 1
        }
        return groups > 0 ? index : nil
    }

    // MARK: - Timestamps

    /// `[0-9]{4}-[0-9]{2}-[0-9]{2}`, or `[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(\.[0-9]*)?([ \t]*(Z|[-+][0-9]{1,2}(:[0-9]{2})?))?`
    private static func isTimestamp(_ text: Text) -> Bool {
        var index = text.startIndex
        func digits(_ range: ClosedRange<Int>) -> Bool {
            let end = text[index...].firstIndex { !isDigit($0) } ?? text.endIndex
            guard range.contains(end - index) else { return false }
            index = end
            return true
        }
        func skip(_ byte: Character) -> Bool {
            guard index < text.endIndex, text[index] == byte.asciiValue else { return false }
            index += 1
            return true
        }
        guard digits(4...4), skip("-"), digits(1...2), skip("-"), digits(1...2) else { return false }
        if index == text.endIndex { return text.count == 10 }
        if !skip("T"), !skip("t") {
            let blanksEnd = text[index...].firstIndex { !isBlank($0) } ?? text.endIndex
            guard blanksEnd > index else { return false }
            index = blanksEnd
        }
        guard digits(1...2), skip(":"), digits(2...2), skip(":"), digits(2...2) else { return false }
        if skip(".") { _ = digits(0...Int.max) }
        if index == text.endIndex { return true }
        index = text[index...].firstIndex { !isBlank($0) } ?? text.endIndex
        if skip("Z") { return index == text.endIndex }
        guard skip("-") || skip("+"), digits(1...2) else { return false }
        if index == text.endIndex { return true }
        return skip(":") && digits(2...2) && index == text.endIndex
    }

    // MARK: - Bytes

    private static let underscore = UInt8(ascii: "_")

    private static func signEnd(_ text: Text) -> Int {
        guard let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") else { return text.startIndex }
        return text.startIndex + 1
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isOctalOrUnderscore(_ byte: UInt8) -> Bool { (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "7")) || byte == underscore }
    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}
