import Foundation
import Glibc
import Testing

/// Bad input on the wire costs the sender an error reply, never the connection or the engine.
@Suite("daemon protocol errors")
struct DaemonProtocolErrorTests {
    @Test("a line that is not JSON gets a malformed reply; the same connection then still works")
    func malformedLine() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let client = try RawClient(socket: daemon.socket)

        try client.send("this is not json")
        let malformed = JSONEvent(line: try #require(try await client.nextLine()))
        #expect(malformed.reply == "error" && malformed.bool("ok") == false && malformed.error == "malformed", "\(malformed)")
        #expect(malformed.string("message")?.contains("invalid JSON") == true, "\(malformed)")

        try client.send(#"["an array", "not an object"]"#)
        let notObject = JSONEvent(line: try #require(try await client.nextLine()))
        #expect(notObject.error == "malformed", "\(notObject)")

        try client.send(#"{"command":"fly","id":4}"#)
        let unknown = try await client.reply(to: 4)
        #expect(unknown.error == "unknownCommand", "\(unknown)")

        try client.send(#"{"command":"abortAll","force":false,"id":5}"#)
        let valid = try await client.reply(to: 5)
        #expect(valid.reply == "abortAll" && valid.bool("ok") == true, "\(valid)")
    }

    @Test("a 10 MiB line gets lineTooLong; the connection, other clients and serve carry on")
    func tenMegabyteLine() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let serve = try await daemon.start()
        let client = try RawClient(socket: daemon.socket)

        try await client.send(bytes: [UInt8](repeating: UInt8(ascii: "x"), count: 10 * 1024 * 1024) + [UInt8(ascii: "\n")])
        let tooLong = JSONEvent(line: try #require(try await client.nextLine()))
        #expect(tooLong.reply == "error" && tooLong.bool("ok") == false && tooLong.error == "lineTooLong", "\(tooLong)")
        #expect(tooLong.string("message")?.contains("\(10 * 1024 * 1024) bytes") == true, "\(tooLong)")

        try client.send(#"{"command":"abortAll","force":false,"id":2}"#)
        #expect(try await client.reply(to: 2).bool("ok") == true)

        let manifest = try daemon.manifest(job: "Quick job", update: "quick", script: "/bin/true")
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        try await daemon.waitForJob(1, state: "succeeded")
        #expect(serve.pid > 0 && !processIsGone(serve.pid), "serve is still running")
    }

    @Test("a submit whose second job is invalid queues neither (invalidJob); the same jobs fixed are queued")
    func submitIsAllOrNothing() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let client = try RawClient(socket: daemon.socket)
        let good = #"{"name":"Good","operation":"install","stopOnFailure":false,"updates":[{"id":"g","title":"G","install":["/bin/true"]}]}"#
        let empty = #"{"name":"Empty","operation":"install","stopOnFailure":false,"updates":[]}"#

        try client.send(#"{"command":"submit","id":1,"jobs":["# + good + "," + empty + "]}")
        let refused = try await client.reply(to: 1)
        #expect(refused.bool("ok") == false && refused.error == "invalidJob", "\(refused)")
        #expect(refused.string("message")?.contains("job 2 (Empty)") == true, "\(refused)")
        #expect(try await daemon.statusJobs().isEmpty, "nothing is queued")

        try client.send(#"{"command":"submit","id":2,"jobs":["# + good + "," + good + "]}")
        let accepted = try await client.reply(to: 2)
        #expect(accepted.bool("ok") == true && accepted.fields["jobs"] as? [Int] == [1, 2], "\(accepted)")
        try await daemon.waitForJob(2, state: "succeeded")
    }
}
