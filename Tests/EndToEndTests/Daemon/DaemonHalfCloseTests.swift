import Foundation
import Glibc
import Testing

/// One-shot clients of `serve`: a client that did not subscribe and shut down its sending side
/// gets every reply it is owed and then the end of the stream, so `printf … | socat` and a
/// bridge whose stdin is a file end instead of waiting for ever.
@Suite("daemon: a client whose input ended")
struct DaemonHalfCloseTests {
    @Test("a raw client that sends durations and shuts down its sending side gets the reply, then the engine closes")
    func oneShotRawClient() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let client = try RawClient(socket: daemon.socket)
        try client.send(#"{"command":"durations","updates":[],"id":2}"#)
        client.shutdownSending()
        let reply = try await client.reply(to: 2, timeout: .seconds(180))
        #expect(reply.string("reply") == "durations" && reply.bool("ok") == true, "\(client.recent)")
        #expect(try await client.nextLine(timeout: .seconds(180)) == nil, "the end of the stream after the reply")
    }

    @Test("installtop bridge with a file on stdin prints the reply and exits 0")
    func bridgeWithAFileOnStdin() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let commands = try daemon.folder.write("commands.jsonl", #"{"command":"durations","updates":[],"id":1}"# + "\n")
        let bridge = try InstalltopProcess(
            ["-c", "exec '\(try InstalltopBinary.path())' bridge --socket '\(daemon.socket)' < '\(commands)'"],
            in: daemon.folder, executable: "/bin/sh")
        let ended = try await bridge.finish(timeout: .seconds(180))
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stderr.isEmpty, "\(ended.stderr)")
        let lines = ended.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines.last == "", "one line: \(ended.stdout)")
        let reply = JSONEvent(line: String(lines.first ?? ""))
        #expect(reply.string("reply") == "durations" && reply.int("id") == 1 && reply.bool("ok") == true, "\(ended.stdout)")
    }

    @Test("a cleanup of a running job, then the end of input: the reply comes once the job is cleaned up, then the engine closes")
    func cleanupAnsweredBeforeTheClose() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let manifest = try daemon.manifest(job: "Gated job", update: "gated", script: daemon.gatedScript())
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        try await daemon.waitForJob(1, state: "running", timeout: .seconds(180))

        let client = try RawClient(socket: daemon.socket)
        try client.send(#"{"command":"cleanup","job":1,"id":3}"#)
        client.shutdownSending()
        // The reply is owed until the job completes and goes: the engine must not close first.
        try daemon.release()
        let reply = try await client.reply(to: 3, timeout: .seconds(180))
        #expect(reply.string("reply") == "cleanup" && reply.bool("ok") == true, "\(client.recent)")
        #expect(try await client.nextLine(timeout: .seconds(180)) == nil, "the end of the stream after the reply")
        #expect(try await daemon.statusJobs().isEmpty)
    }
}
