/// Builds one JSON object as UTF-8 with its fields in the order they are added, so events read
/// like the contract in PRODUCT.md.
///
/// Written for speed (the daemon encodes every event once per event, and a whole queue per
/// snapshot): it appends bytes, and strings without characters to escape are copied whole.
public struct JSONObject {
    private var buffer: [UInt8] = [UInt8(ascii: "{")]
    private var isEmpty = true

    public init() {
        buffer.reserveCapacity(192)
    }

    public mutating func add(_ key: String, _ value: String) {
        addKey(key)
        Self.appendQuoted(value, to: &buffer)
    }

    public mutating func add(_ key: String, _ value: Int) {
        addKey(key)
        Self.appendInteger(Int64(value), to: &buffer)
    }

    public mutating func add(_ key: String, _ value: Int32) { add(key, Int(value)) }

    public mutating func add(_ key: String, _ value: Int64) {
        addKey(key)
        Self.appendInteger(value, to: &buffer)
    }

    public mutating func add(_ key: String, _ value: Bool) { addRaw(key, value ? "true" : "false") }

    /// Numbers are rounded to two decimals and keep one at least (`42.0`), as in the
    /// contract's examples; infinities and NaN become `null`.
    public mutating func add(_ key: String, _ value: Double) {
        addRaw(key, Self.number(value))
    }

    public mutating func add(_ key: String, _ value: JSONValue) { addRaw(key, value.json) }

    public mutating func add(_ key: String, strings: [String]) {
        addKey(key)
        buffer.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            Self.appendQuoted(string, to: &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    public mutating func addNull(_ key: String) { addRaw(key, "null") }

    /// Adds already-encoded JSON (an array or object).
    public mutating func addRaw(_ key: String, _ json: String) {
        addKey(key)
        buffer.append(contentsOf: json.utf8)
    }

    /// Adds already-encoded JSON given as UTF-8.
    public mutating func addRaw(_ key: String, bytes json: [UInt8]) {
        addKey(key)
        buffer.append(contentsOf: json)
    }

    /// The object as text.
    public var json: String { String(decoding: bytes, as: UTF8.self) }

    /// The object as UTF-8.
    public var bytes: [UInt8] {
        var bytes = buffer
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// A JSON string literal: quotes, backslashes and every control character escaped (and
    /// U+2028/U+2029, which some JavaScript parsers take for line ends).
    public static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` as JSON: two decimals at most, one at least; `null` when not finite.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) + ".0" }
        return String(rounded)
    }

    // MARK: - Private

    private mutating func addKey(_ key: String) {
        if !isEmpty { buffer.append(UInt8(ascii: ",")) }
        isEmpty = false
        Self.appendQuoted(key, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
    }

    private static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        if value >= 0 && value < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(value))
        } else {
            buffer.append(contentsOf: String(value).utf8)
        }
    }

    private static func appendQuoted(_ value: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                let escape: [UInt8]?
                switch byte {
                case UInt8(ascii: "\""): escape = [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): escape = [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case 0x0A: escape = [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: escape = [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: escape = [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0..<0x20, 0x7F: escape = unicodeEscape(UInt32(byte))
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escape = unicodeEscape(utf8[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                default: escape = nil
                }
                guard let escape else {
                    index += 1
                    continue
                }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                buffer.append(contentsOf: escape)
                index += byte == 0xE2 ? 3 : 1
                runStart = index
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private static func unicodeEscape(_ scalar: UInt32) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        return [
            UInt8(ascii: "\\"), UInt8(ascii: "u"), hex[Int(scalar >> 12 & 0xF)], hex[Int(scalar >> 8 & 0xF)],
            hex[Int(scalar >> 4 & 0xF)], hex[Int(scalar & 0xF)],
        ]
    }
}
