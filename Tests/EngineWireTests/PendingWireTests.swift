import EngineWire
import Testing

/// The `pending` and `refresh` commands and the `pending` reply, both ways; who may send them.
@Suite("pending on the wire")
struct PendingWireTests {
    @Test("pending and refresh read back as written; pending's members default to false; a watcher may ask pending, not refresh")
    func commands() throws {
        for command in [WireCommand.pending(PendingRequest()), .pending(PendingRequest(recompute: true, wait: true)), .refresh] {
            guard case .object(let members) = try JSONParser.parse(command.line(requestID: 4)) else {
                Issue.record("not an object: \(command.line())")
                continue
            }
            #expect(try WireCommand(members) == command, "\(command.line())")
        }
        #expect(WireCommand.pending(PendingRequest()).line() == #"{"command":"pending"}"#)
        #expect(!WireCommand.pending(PendingRequest(recompute: true)).acts && WireCommand.refresh.acts)
        guard case .object(let bad) = try JSONParser.parse(#"{"command":"pending","wait":"yes"}"#) else { return }
        #expect(throws: WireError.self) { try WireCommand(bad) }
    }

    @Test("The reply's snapshot is an object or null, computing true or false")
    func reply() throws {
        let state = PendingState(snapshot: .object(JSONMembers(["pending": .integer(2)])), computing: true)
        let line = WireReply(command: "pending", requestID: 1, fields: state.fields).line
        guard case .object(let members) = try JSONParser.parse(line) else {
            Issue.record("not an object: \(line)")
            return
        }
        #expect(try PendingState(reply: WireReply(json: members)) == state)
        let none = PendingState(snapshot: nil, computing: true)
        guard case .object(let empty) = try JSONParser.parse(WireReply(command: "pending", requestID: nil, fields: none.fields).line) else { return }
        #expect(try PendingState(reply: WireReply(json: empty)) == none)
        #expect(throws: WireError.self) {
            try PendingState(reply: WireReply(command: "pending", requestID: nil, fields: ["snapshot": .string("x")]))
        }
    }
}
