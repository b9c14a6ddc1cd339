import Foundation

/// Builds one JSON object as text with its fields in the order they are added, so events
/// read like the contract in PRODUCT.md.
public struct JSONObject {
    private var text = "{"
    private var isEmpty = true

    public init() {}

    public mutating func add(_ key: String, _ value: String) { addRaw(key, Self.quoted(value)) }
    public mutating func add(_ key: String, _ value: Int) { addRaw(key, String(value)) }
    public mutating func add(_ key: String, _ value: Int32) { addRaw(key, String(value)) }
    public mutating func add(_ key: String, _ value: Int64) { addRaw(key, String(value)) }
    public mutating func add(_ key: String, _ value: Bool) { addRaw(key, value ? "true" : "false") }
    public mutating func add(_ key: String, _ value: JSONValue) { addRaw(key, value.json) }
    public mutating func add(_ key: String, strings: [String]) {
        addRaw(key, "[" + strings.map(Self.quoted).joined(separator: ",") + "]")
    }

    /// Numbers keep one decimal at least (`42.0`), as in the contract's examples.
    public mutating func add(_ key: String, _ value: Double) {
        let rounded = (value * 100).rounded() / 100
        addRaw(key, rounded == rounded.rounded() ? String(format: "%.1f", rounded) : String(rounded))
    }

    public mutating func addNull(_ key: String) { addRaw(key, "null") }

    /// Adds already-encoded JSON (an array or object).
    public mutating func addRaw(_ key: String, _ json: String) {
        if !isEmpty { text += "," }
        text += Self.quoted(key) + ":" + json
        isEmpty = false
    }

    public var json: String { text + "}" }

    /// A JSON string literal: quotes, backslashes and every control character escaped.
    public static func quoted(_ value: String) -> String {
        var result = "\""
        result.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

