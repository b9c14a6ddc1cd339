import InstallEngine

/// One line the engine sends a client.
public enum ServerMessage: Sendable, Hashable {
    /// An event of the JSON contract (Documentation/JSON-EVENTS.md).
    case event(EngineEvent)
    /// `{"event":"snapshot.begin","jobs":N}`: the replay of the queue as it stands follows.
    case snapshotBegin(jobs: Int)
    /// `{"event":"snapshot.end"}`: the replay is complete; live events follow.
    case snapshotEnd
    case reply(WireReply)
    /// `{"event":"pending",…}`: the engine's pending snapshot changed, or a newer one is coming
    /// (`PendingState.eventLine`); sent after `snapshot.end` and at each change.
    case pending(PendingState)
    /// `{"event":"armed","runs":[…]}`: the engine's commit-confirmed runs (`ArmedRuns`); sent
    /// after `snapshot.end` and at each change.
    case armed(ArmedRuns)
    /// An event this client does not know (from a newer engine); skipped.
    case unknown(String)

    /// The text of `snapshotBegin`.
    public static func snapshotBeginLine(jobs: Int) -> String {
        "{\"event\":\"snapshot.begin\",\"jobs\":\(jobs)}"
    }

    public static let snapshotEndLine = "{\"event\":\"snapshot.end\"}"

    /// Reads one line (without its newline).
    /// - Throws: `WireError` `.unexpectedMessage` for text that is not one of the engine's messages.
    public static func decode(_ line: [UInt8]) throws(WireError) -> ServerMessage {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw WireError(.unexpectedMessage, "the engine sent something that is not JSON (\(error))")
        }
        guard case .object(let object) = value else { throw WireError(.unexpectedMessage, "the engine sent a line that is not an object") }
        if object["reply"] != nil { return .reply(try WireReply(json: object)) }
        guard let name = object["event"]?.stringValue else { throw WireError(.unexpectedMessage, "a line with neither `event` nor `reply`") }
        switch name {
        case "snapshot.begin": return .snapshotBegin(jobs: object["jobs"]?.intValue ?? 0)
        case "snapshot.end": return .snapshotEnd
        case PendingState.eventName: return .pending(try PendingState(fields: object.dictionary))
        case ArmedRuns.eventName: return .armed(try ArmedRuns(fields: object.dictionary))
        default:
            guard let event = try EventCoding.decode(name: name, object) else { return .unknown(name) }
            return .event(event)
        }
    }
}
