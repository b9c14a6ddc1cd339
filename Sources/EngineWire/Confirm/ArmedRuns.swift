/// The commit-confirmed runs of an engine's history that its clients are told of
/// (`{"event":"armed","runs":[…]}`): every window still open and those decided in the last day,
/// newest first, pushed after the snapshot and at each change (armed, extended, confirmed,
/// reverting, reverted), so that a board counts down without asking.
public struct ArmedRuns: Sendable, Hashable {
    public var runs: [ArmedRun]

    public init(runs: [ArmedRun]) {
        self.runs = runs
    }

    /// The event's name.
    public static let eventName = "armed"

    /// The state as an `armed` event's line, without its newline.
    public var eventLine: String {
        var object = JSONObject()
        object.add("event", Self.eventName)
        object.add("runs", .array(runs.map(\.json)))
        return object.json
    }

    /// Reads an `armed` event's members; a run it cannot read is an error, never skipped.
    public init(fields: [String: JSONValue]) throws(WireError) {
        guard let runs = fields["runs"]?.arrayValue else { throw WireError(.unexpectedMessage, "armed: `runs` must be an array") }
        var read: [ArmedRun] = []
        for run in runs { read.append(try ArmedRun(json: run)) }
        self.runs = read
    }

    /// The newest run: the one a host's row shows.
    public var newest: ArmedRun? { runs.first }
}
