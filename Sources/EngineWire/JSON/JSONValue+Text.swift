#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics

extension JSONValue {
    /// The value as compact JSON text; object members sorted by name, so equal values give
    /// equal text.
    public var json: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .double(let value):
            return value.isFinite ? (value == value.rounded() && abs(value) < 1e15 ? CFormat.decimals(value, places: 1) : String(value)) : "null"
        case .string(let value): return JSONObject.quoted(value)
        case .array(let elements): return "[" + elements.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            var object = JSONObject()
            for (key, value) in members.sorted(by: { $0.key < $1.key }) { object.add(key, value) }
            return object.json
        }
    }
}
