#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Builds one JSON object as UTF-8 with its fields in the order they are added, so events read
/// like the contract in Documentation/JSON-EVENTS.md.
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
        addKey(key)
        Self.appendNumber(value, to: &buffer)
    }

    /// A date as an RFC 3339 string in UTC with milliseconds (`RFC3339`).
    public mutating func add(_ key: String, date: Date) {
        addKey(key)
        buffer.append(UInt8(ascii: "\""))
        RFC3339.append(date, to: &buffer)
        buffer.append(UInt8(ascii: "\""))
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

    /// `value`, or `null` when there is none: for a member every object of its kind carries.
    public mutating func add(_ key: String, orNull value: String?) {
        if let value { add(key, value) } else { addNull(key) }
    }

    /// `value`, or `null` when there is none.
    public mutating func add(_ key: String, orNull value: Int?) {
        if let value { add(key, value) } else { addNull(key) }
    }

    /// `value` (as `add(_:_:)` writes a number), or `null` when there is none.
    public mutating func add(_ key: String, orNull value: Double?) {
        if let value { add(key, value) } else { addNull(key) }
    }

    /// `date` (as `add(_:date:)` writes it), or `null` when there is none.
    public mutating func add(_ key: String, orNullDate date: Date?) {
        if let date { add(key, date: date) } else { addNull(key) }
    }

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

    /// The object as UTF-8, made of its own buffer: no copy (an event is written once).
    public consuming func finished() -> [UInt8] {
        buffer.append(UInt8(ascii: "}"))
        return buffer
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
        var bytes: [UInt8] = []
        appendNumber(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `number(_:)`, appended to `buffer`. Below 10^13 the digits are written here, without a
    /// string per number: the hundredths are an exact integer there, and the shortest decimal
    /// that reads back as `hundredths / 100` (what `String(_:)` writes) is those digits.
    private static func appendNumber(_ value: Double, to buffer: inout [UInt8]) {
        guard value.isFinite else {
            buffer.append(contentsOf: "null".utf8)
            return
        }
        let hundredths = (value * 100).rounded()
        guard abs(hundredths) < 1e15 else {
            let rounded = hundredths / 100
            if rounded == rounded.rounded(), abs(rounded) < 1e15 {
                appendInteger(Int64(rounded), to: &buffer)
                buffer.append(contentsOf: ".0".utf8)
            } else {
                buffer.append(contentsOf: String(rounded).utf8)
            }
            return
        }
        let whole = Int64(hundredths)
        if whole < 0 { buffer.append(UInt8(ascii: "-")) }
        appendInteger(Int64(whole.magnitude / 100), to: &buffer)
        buffer.append(UInt8(ascii: "."))
        let fraction = UInt8(whole.magnitude % 100)
        buffer.append(UInt8(ascii: "0") + fraction / 10)
        if fraction % 10 != 0 { buffer.append(UInt8(ascii: "0") + fraction % 10) }
    }

    // MARK: - Private

    private mutating func addKey(_ key: String) {
        if !isEmpty { buffer.append(UInt8(ascii: ",")) }
        isEmpty = false
        Self.appendQuoted(key, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
    }

    private static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // The digits from the last, into their places at the end of the buffer.
        var count = 1
        var rest = magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        for position in stride(from: start + count - 1, through: start, by: -1) {
            buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        }
    }

    private static func appendQuoted(_ value: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            // Most strings (every key, most texts) have nothing to escape: copied whole.
            guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 >= 0x7F }) else {
                buffer.append(contentsOf: utf8)
                return
            }
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
