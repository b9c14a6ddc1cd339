import Foundation

extension JSONEvent {
    /// One line of the wire protocol; a line that is not a JSON object gets the single field
    /// `unparsed` holding it, so a test fails on its content rather than here.
    init(line: String) {
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        self.init(fields: object ?? ["unparsed": line])
    }

    /// The command a reply answers (`subscribe`, `abort`, `error` …); `nil` for events.
    var reply: String? { string("reply") }
    /// The error code of a refused command (`malformed`, `notAllowed` …).
    var error: String? { string("error") }
}

extension Array where Element == JSONEvent {
    /// The events named `name`, in order.
    func events(_ name: String) -> [JSONEvent] { filter { $0.name == name } }

    /// The event names, in order (replies left out).
    var eventNames: [String] { compactMap { $0.name.isEmpty ? nil : $0.name } }
}
