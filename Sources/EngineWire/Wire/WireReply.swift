/// The engine's answer to one command: `{"reply":"abort","id":7,"ok":true}` or
/// `{"reply":"abort","ok":false,"error":"unknownJob","message":"there is no job 9"}`, plus the
/// command's own fields (`"jobs":[4,5]` for `submit`, `"entries":[…]` for `history`).
public struct WireReply: Sendable, Hashable {
    /// The command answered (`"error"` when the line could not be read as a command).
    public var command: String
    /// The request's `"id"`, echoed.
    public var requestID: Int?
    /// `nil` when the command succeeded.
    public var error: WireError?
    /// The command's results (never `reply`, `id`, `ok`, `error` or `message`).
    public var fields: [String: JSONValue]

    public init(command: String, requestID: Int?, error: WireError? = nil, fields: [String: JSONValue] = [:]) {
        self.command = command
        self.requestID = requestID
        self.error = error
        self.fields = fields
    }

    public var isOK: Bool { error == nil }

    /// One line of JSON, without the newline.
    public var line: String {
        var object = JSONObject()
        object.add("reply", command)
        if let requestID { object.add("id", requestID) }
        object.add("ok", error == nil)
        if let error {
            object.add("error", error.code.rawValue)
            object.add("message", error.message)
        }
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) { object.add(key, value) }
        return object.json
    }

    /// Reads a reply object (one with a `"reply"` member).
    public init(json object: JSONMembers) throws(WireError) {
        guard let command = object["reply"]?.stringValue else { throw WireError(.unexpectedMessage, "a reply without `reply`") }
        self.command = command
        requestID = object["id"]?.intValue
        if object["ok"]?.boolValue == true {
            error = nil
        } else {
            let code = object["error"]?.stringValue.flatMap(WireError.Code.init(rawValue:)) ?? .unexpectedMessage
            error = WireError(code, object["message"]?.stringValue ?? "the engine refused without saying why")
        }
        fields = object.dictionary.filter { !["reply", "id", "ok", "error", "message"].contains($0.key) }
    }
}
