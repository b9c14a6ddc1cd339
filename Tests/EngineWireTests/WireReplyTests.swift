import EngineWire
import Foundation
import InstallEngine
import Testing

@Suite("WireReply and ServerMessage: what the engine sends, read back")
struct WireReplyTests {
    static let replies: [WireReply] = [
        WireReply(command: "abort", requestID: 7),
        WireReply(command: "subscribe", requestID: nil),
        WireReply(command: "submit", requestID: 1, fields: ["jobs": .array([.integer(4), .integer(5)])]),
        WireReply(command: "history", requestID: 3, fields: [
            "entries": .array([.object(["updateId": .string("a"), "durationMs": .null, "running": .bool(false)])]),
        ]),
        WireReply(command: "durations", requestID: 2, fields: ["durations": .object(["a": .double(1.5), "b": .double(3)])]),
        WireReply(command: "abort", requestID: 7, error: WireError(.unknownJob, "there is no job 9")),
        WireReply(command: "error", requestID: nil, error: WireError(.malformed, "invalid JSON at byte 1: \"quoted\"\n")),
    ]

    @Test(arguments: WireReplyTests.replies)
    func repliesRoundTrip(reply: WireReply) throws {
        let line = reply.line
        #expect(!line.contains("\n"))
        let object = try #require(try JSONParser.parse(line).objectValue)
        #expect(try WireReply(json: object) == reply)
        #expect(object["ok"] == .bool(reply.isOK))
        #expect(try ServerMessage.decode(Array(line.utf8)) == .reply(reply))
    }

    @Test func replyLinesMatchTheProtocol() {
        #expect(WireReply(command: "abort", requestID: 7).line == #"{"reply":"abort","id":7,"ok":true}"#)
        #expect(WireReply(command: "abort", requestID: 7, error: WireError(.unknownJob, "there is no job 9")).line
            == #"{"reply":"abort","id":7,"ok":false,"error":"unknownJob","message":"there is no job 9"}"#)
    }

    @Test func aReplyWithoutAnErrorCodeIsStillARefusal() throws {
        let reply = try WireReply(json: ["reply": .string("abort"), "ok": .bool(false)])
        #expect(!reply.isOK)
        #expect(reply.error?.code == .unexpectedMessage)
        let unknownCode = try WireReply(json: ["reply": .string("abort"), "ok": .bool(false), "error": .string("newCode")])
        #expect(unknownCode.error?.code == .unexpectedMessage)
    }

    // MARK: - ServerMessage

    @Test func snapshotMarkers() throws {
        #expect(try ServerMessage.decode(Array(ServerMessage.snapshotBeginLine(jobs: 3).utf8)) == .snapshotBegin(jobs: 3))
        #expect(try ServerMessage.decode(Array(ServerMessage.snapshotEndLine.utf8)) == .snapshotEnd)
        #expect(try ServerMessage.decode(Array(#"{"event":"snapshot.begin","jobs":0}"#.utf8)) == .snapshotBegin(jobs: 0))
    }

    @Test func events() throws {
        let event = EngineEvent(time: EventCodingTests.time(42_125), kind: .progress(
            job: 1, index: 0, updatePercent: 50, jobPercent: 25, message: "half"))
        #expect(try ServerMessage.decode(Array(EventCoding.encode(event).utf8)) == .event(event))
        let cleaned = EngineEvent(time: EventCodingTests.time(43_500), kind: .jobCleanedUp(job: 1))
        #expect(try ServerMessage.decode(Array(EventCoding.encode(cleaned).utf8)) == .event(cleaned))
    }

    @Test func unknownEventsAreSkippable() throws {
        #expect(try ServerMessage.decode(Array(#"{"event":"job.paused","job":1}"#.utf8)) == .unknown("job.paused"))
    }

    @Test(arguments: ["not json", "", "[1,2]", "\"text\"", #"{"job":1}"#, #"{"event":5}"#, #"{"reply":5,"ok":true}"#])
    func otherLinesAreUnexpected(line: String) {
        do {
            let message = try ServerMessage.decode(Array(line.utf8))
            Issue.record("\(line.debugDescription) read as \(message)")
        } catch {
            #expect(error.code == .unexpectedMessage, "\(line.debugDescription)")
        }
    }

    @Test func aKnownEventWithBadMembersIsABadArgument() {
        #expect(throws: WireError(.badArgument, "job.started: `job` must be an integer")) {
            try ServerMessage.decode(Array(#"{"event":"job.started"}"#.utf8))
        }
    }
}
