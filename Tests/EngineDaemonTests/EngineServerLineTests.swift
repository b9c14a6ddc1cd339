import EngineDaemon
import EngineWire
import Testing

@Suite("EngineServer: lines that are not commands")
struct EngineServerLineTests {
    /// The next reply on `connection`, skipping nothing: these connections never subscribe.
    private func reply(_ connection: RawConnection) throws -> WireReply? {
        guard case .reply(let reply)? = try connection.nextMessage() else { return nil }
        return reply
    }

    @Test func malformedLinesAreAnsweredAndTheConnectionStaysUsable() throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let connection = try RawConnection(path: engine.socketPath)

        connection.send("this is not json\n")
        let notJSON = try #require(try reply(connection))
        #expect(notJSON.command == "error" && notJSON.requestID == nil)
        #expect(notJSON.error?.code == .malformed)
        #expect(notJSON.error?.message.hasPrefix("invalid JSON at byte 1: ") == true, "\(notJSON.error?.message ?? "")")

        connection.send("[1,2]\n")
        #expect(try reply(connection)?.error == WireError(.malformed, "a command must be a JSON object"))

        connection.send("{\"command\":\"abort\",\"job\":1,}\n")
        #expect(try reply(connection)?.error?.code == .malformed)

        connection.send("{\"command\":\"frobnicate\",\"id\":3}\n")
        let unknown = try #require(try reply(connection))
        #expect(unknown.command == "frobnicate" && unknown.requestID == 3 && unknown.error?.code == .unknownCommand)

        connection.send("{\"command\":\"abort\",\"job\":\"x\",\"id\":4}\n")
        let bad = try #require(try reply(connection))
        #expect(bad.command == "abort" && bad.requestID == 4 && bad.error?.code == .badArgument)

        connection.send("{\"id\":5}\n")
        #expect(try reply(connection)?.error?.code == .badArgument)

        // Blank lines get no answer: the next reply is the abort's.
        connection.send("\n  \t\n\r\n{\"command\":\"abort\",\"job\":42,\"id\":6}\r\n")
        #expect(try reply(connection) == WireReply(command: "abort", requestID: 6, error: WireError(.unknownJob, "there is no job 42")))
    }

    @Test func anOverlongLineIsSkippedWithOneReply() throws {
        let engine = try TestEngine(maximumLineLength: 1024)
        defer { engine.stop() }
        let connection = try RawConnection(path: engine.socketPath)

        let long = "{\"command\":\"history\",\"pad\":\"" + String(repeating: "x", count: 5000) + "\"}"
        connection.send(long + "\n")
        let skipped = try #require(try reply(connection))
        #expect(skipped.command == "error" && skipped.error?.code == .lineTooLong)
        #expect(skipped.error?.message.contains("\(long.utf8.count) bytes") == true, "\(skipped.error?.message ?? "")")
        #expect(skipped.error?.message.contains("1024 bytes") == true)

        // Sent in pieces, without a newline until the end.
        for _ in 0..<10 { connection.send(String(repeating: "y", count: 700)) }
        connection.send("\n{\"command\":\"abortAll\",\"id\":8}\n")
        #expect(try reply(connection)?.error?.code == .lineTooLong)
        #expect(try reply(connection) == WireReply(command: "abortAll", requestID: 8), "the next line is read normally")

        let prefix = "{\"command\":\"abortAll\",\"id\":9,\"pad\":\""
        let limit = prefix + String(repeating: "z", count: 1024 - prefix.utf8.count - 2) + "\"}"
        try #require(limit.utf8.count == 1024)
        connection.send(limit + "\n")
        #expect(try reply(connection) == WireReply(command: "abortAll", requestID: 9), "exactly at the limit is read")
    }
}
