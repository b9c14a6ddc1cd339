import Foundation

/// One line of `installtop run --json`, with typed access to the contract's fields.
struct JSONEvent: CustomStringConvertible {
    let fields: [String: Any]

    /// The `event` field ("job.queued", "progress", …); empty when missing.
    var name: String { string("event") ?? "" }
    var job: Int? { int("job") }
    var index: Int? { int("index") }

    func string(_ key: String) -> String? { fields[key] as? String }
    func int(_ key: String) -> Int? { (fields[key] as? NSNumber)?.intValue }
    func double(_ key: String) -> Double? { (fields[key] as? NSNumber)?.doubleValue }
    func bool(_ key: String) -> Bool? { fields[key] as? Bool }

    var description: String {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else { return "\(fields)" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension RunResult {
    /// stdout as JSON events, in order.
    func jsonEvents() throws -> [JSONEvent] { try jsonObjects().map(JSONEvent.init) }
}
