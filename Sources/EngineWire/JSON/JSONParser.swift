import Glibc

/// Parses one JSON value (RFC 8259) from UTF-8 bytes.
///
/// Written here rather than taken from Foundation because the daemon's clients parse every
/// event of a snapshot before their first frame: Foundation's `JSONSerialization` and
/// `JSONDecoder` took 5–10 µs per event object on this machine, this parser well under 1 µs
/// (see `installtop-bench wire-decode`), which is what keeps an attach to a 10,000-update queue under
/// 100 ms.
///
/// Strict where it matters: one value with only whitespace around it, no trailing commas, no
/// comments, no leading zeros, control characters escaped in strings, nesting at most
/// `maximumDepth` deep (deeper input is refused, never a stack overflow). Invalid UTF-8 inside
/// strings becomes U+FFFD, like the rest of installtop's text handling; an escaped lone
/// surrogate becomes U+FFFD too.
public enum JSONParser {
    /// Arrays and objects nested deeper than this are refused.
    public static let maximumDepth = 64

    /// Parses `text`.
    /// - Throws: `JSONParseError` naming the byte offset and what was expected there.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        var failure: JSONParseError?
        let value = text.withUTF8 { bytes -> JSONValue? in
            do throws(JSONParseError) { return try parse(bytes) } catch {
                failure = error
                return nil
            }
        }
        guard let value else { throw failure! }
        return value
    }

    /// Parses UTF-8 bytes.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        // Not through `Result`: looking up its generic metadata cost more than parsing a
        // short line.
        var failure: JSONParseError?
        let value = bytes.withUnsafeBufferPointer { buffer -> JSONValue? in
            do throws(JSONParseError) { return try parse(buffer) } catch {
                failure = error
                return nil
            }
        }
        guard let value else { throw failure! }
        return value
    }

    /// Parses the bytes of `buffer`.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var reader = Reader(bytes: buffer)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.position == buffer.count else { throw reader.error("unexpected text after the value") }
        return value
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        func error(_ message: String) -> JSONParseError {
            JSONParseError(offset: position, message: message)
        }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
            guard let byte = current else { throw error("expected a value, got the end of the text") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("expected a value, got \(Self.describe(byte))")
            }
        }

        mutating func literal(_ word: StaticString) throws(JSONParseError) {
            let count = word.utf8CodeUnitCount
            guard bytes.count - position >= count,
                memcmp(bytes.baseAddress! + position, word.utf8Start, count) == 0
            else { throw error("expected \(word)") }
            position += count
        }

        mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else { throw error("nested more than \(JSONParser.maximumDepth) deep") }
            position += 1
            var members = JSONMembers()
            members.reserveCapacity(16)
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                guard current == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                let key = try string()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error("expected `:` after a member name") }
                position += 1
                skipWhitespace()
                members.append(key, try value(depth: depth))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","):
                    position += 1
                    skipWhitespace()
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(members)
                default:
                    throw error("expected `,` or `}` in an object")
                }
            }
        }

        mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else { throw error("nested more than \(JSONParser.maximumDepth) deep") }
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                elements.append(try value(depth: depth))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","):
                    position += 1
                    skipWhitespace()
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(elements)
                default:
                    throw error("expected `,` or `]` in an array")
                }
            }
        }

        /// A string starting at the opening quote. Runs without escapes are copied as they are.
        mutating func string() throws(JSONParseError) -> String {
            position += 1
            let start = position
            // Fast path: no escapes.
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    position += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw error("a control character must be escaped in a string") }
                position += 1
            }
            var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return String(decoding: decoded, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    position += 1
                    try escape(into: &decoded)
                case 0..<0x20:
                    throw error("a control character must be escaped in a string")
                default:
                    decoded.append(byte)
                    position += 1
                }
            }
            throw error("unterminated string")
        }

        /// One escape after its backslash, appended as UTF-8.
        mutating func escape(into decoded: inout [UInt8]) throws(JSONParseError) {
            guard let byte = current else { throw error("unterminated string") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate: a low one must follow as another \u escape.
                    if bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        let saved = position
                        position += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            position = saved
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00..<0xE000).contains(scalar) {
                    scalar = 0xFFFD
                }
                decoded.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default:
                position -= 1
                throw error("unknown escape \\\(Self.describe(byte))")
            }
        }

        mutating func hex4() throws(JSONParseError) -> UInt32 {
            guard bytes.count - position >= 4 else { throw error("expected four hex digits after \\u") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("expected four hex digits after \\u")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        /// A number per RFC 8259's grammar: integers in `Int`'s range exactly, the rest as Double.
        mutating func number() throws(JSONParseError) -> JSONValue {
            let start = position
            var isInteger = true
            if current == UInt8(ascii: "-") { position += 1 }
            guard let first = current, Self.isDigit(first) else { throw error("expected a digit") }
            if first == UInt8(ascii: "0") {
                position += 1
                if let next = current, Self.isDigit(next) { throw error("a number cannot start with 0") }
            } else {
                skipDigits()
            }
            if current == UInt8(ascii: ".") {
                isInteger = false
                position += 1
                guard let next = current, Self.isDigit(next) else { throw error("expected a digit after `.`") }
                skipDigits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                isInteger = false
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard let next = current, Self.isDigit(next) else { throw error("expected a digit in the exponent") }
                skipDigits()
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            if isInteger, let value = Int(text) { return .integer(value) }
            guard let value = Double(text), value.isFinite else {
                position = start
                throw error("the number \(text) is out of range")
            }
            return .double(value)
        }

        mutating func skipDigits() {
            while let byte = current, Self.isDigit(byte) { position += 1 }
        }

        static func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        static func describe(_ byte: UInt8) -> String {
            if byte >= 0x21 && byte < 0x7F { return "`\(Character(Unicode.Scalar(byte)))`" }
            return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }
    }
}
