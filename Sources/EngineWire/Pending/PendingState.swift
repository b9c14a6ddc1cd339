/// What the engine's `pending` reply carries: the latest pending snapshot of its root and
/// whether a newer one is being computed or waits to be.
public struct PendingState: Sendable, Hashable {
    /// The snapshot as its JSON object (`PendingSnapshotCoding`); `nil` before the first one
    /// is computed.
    public var snapshot: JSONValue?
    /// A snapshot is being computed, or waits for the engine's package jobs (a refresh among
    /// them) to end.
    public var computing: Bool

    public init(snapshot: JSONValue?, computing: Bool) {
        self.snapshot = snapshot
        self.computing = computing
    }

    /// The reply's fields: `"snapshot"` (an object or null) and `"computing"`.
    public var fields: [String: JSONValue] {
        ["snapshot": snapshot ?? .null, "computing": .bool(computing)]
    }

    /// The name of the event that pushes the state to every subscribed client as it changes:
    /// `{"event":"pending","computing":false,"snapshot":{…}}`.
    public static let eventName = "pending"

    /// The state as a `pending` event's line, without its newline.
    public var eventLine: String {
        var object = JSONObject()
        object.add("event", Self.eventName)
        object.add("computing", computing)
        object.add("snapshot", snapshot ?? .null)
        return object.json
    }

    /// Reads a `pending` reply's fields.
    /// - Throws: `unexpectedMessage` when `snapshot` is neither an object nor null.
    public init(reply: WireReply) throws(WireError) {
        try self.init(fields: reply.fields)
    }

    /// Reads the members of a `pending` reply or event.
    /// - Throws: `unexpectedMessage` when `snapshot` is neither an object nor null.
    public init(fields: [String: JSONValue]) throws(WireError) {
        let snapshot = fields["snapshot"]
        guard snapshot == nil || snapshot == .null || snapshot?.objectValue != nil else {
            throw WireError(.unexpectedMessage, "pending: `snapshot` must be an object or null")
        }
        self.snapshot = snapshot == .null ? nil : snapshot
        computing = fields["computing"]?.boolValue ?? false
    }
}
