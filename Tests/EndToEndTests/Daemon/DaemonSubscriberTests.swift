import Foundation
import Glibc
import Testing

/// Subscribed clients on the raw protocol: the snapshot, live events, actions seen by all, and
/// a subscriber that vanishes.
@Suite("daemon subscribers")
struct DaemonSubscriberTests {
    /// Subscribes `client` and reads its reply and snapshot; returns the snapshot's lines
    /// between snapshot.begin and snapshot.end.
    private func subscribe(_ client: RawClient) async throws -> (begin: JSONEvent, replay: [JSONEvent]) {
        try client.send(#"{"command":"subscribe","id":1}"#)
        let lines = try await client.read(until: "snapshot.end") { $0.name == "snapshot.end" }
        #expect(lines.first?.reply == "subscribe" && lines.first?.bool("ok") == true && lines.first?.int("id") == 1, "\(lines.first!)")
        let begin = try #require(lines.firstIndex { $0.name == "snapshot.begin" })
        return (lines[begin], Array(lines[(begin + 1)..<(lines.count - 1)]))
    }

    /// Reads until the gated script's last line and its progress report have both come (they
    /// travel through different pipes, so either may come first).
    private func readUntilGated(_ client: RawClient, lines: Int = 3) async throws -> [JSONEvent] {
        var sawProgress = false
        var sawLastLine = false
        return try await client.read(until: "line \(lines) and the progress report") { event in
            sawProgress = sawProgress || event.name == "progress"
            sawLastLine = sawLastLine || (event.name == "log" && event.string("line") == "line \(lines)")
            return sawProgress && sawLastLine
        }
    }

    @Test("two subscribers see the same live events; an abort by one shows in both; a late one gets the full state")
    func subscribersShareEverything() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let first = try RawClient(socket: daemon.socket)
        let second = try RawClient(socket: daemon.socket)
        for client in [first, second] {
            let (begin, replay) = try await subscribe(client)
            #expect(begin.int("jobs") == 0 && replay.isEmpty, "an empty queue replays nothing: \(replay)")
        }

        let manifest = try daemon.manifest(job: "Gated job", update: "gated", script: daemon.gatedScript(lines: 3))
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        for client in [first, second] {
            let live = try await readUntilGated(client)
            #expect(Array(live.eventNames.prefix(3)) == ["job.queued", "job.started", "update.started"], "\(live)")
            #expect(live.eventNames.dropFirst(3).sorted() == ["log", "log", "log", "progress"], "\(live)")
            #expect(live.events("log").map { $0.string("line") } == ["line 1", "line 2", "line 3"])
            #expect(live[0].string("name") == "Gated job" && live[0].job == 1)
        }

        // Mid-job: the snapshot holds everything so far, in order, with the live state.
        let late = try RawClient(socket: daemon.socket)
        let (begin, replay) = try await subscribe(late)
        #expect(begin.int("jobs") == 1)
        #expect(replay.eventNames == ["job.queued", "job.started", "update.started", "log", "log", "log", "progress"], "\(replay)")
        #expect(replay.events("log").map { $0.string("line") } == ["line 1", "line 2", "line 3"], "\(replay)")
        #expect(replay.events("progress").first?.double("updatePercent") == 40, "\(replay)")
        #expect(replay.events("progress").first?.string("message") == "gated", "\(replay)")

        try first.send(#"{"command":"abort","job":1,"force":false,"id":7}"#)
        for (name, client) in [("first", first), ("second", second), ("late", late)] {
            var lines = try await client.read(until: "job.completed in the \(name) subscriber") { $0.name == "job.completed" }
            // A reply is not ordered with the events its command causes: the engine may deliver
            // them (up to job.completed of a quickly killed child) on the thread that took the
            // command, before the reply is queued.
            if client === first, !lines.contains(where: { $0.reply != nil }) {
                lines += try await client.read(until: "the abort's reply") { $0.reply != nil }
            }
            #expect(lines.events("job.abortRequested").count == 1 && lines.events("job.abortRequested").first?.job == 1,
                    "\(name): \(lines)")
            let completed = try #require(lines.last { $0.name == "job.completed" })
            #expect(completed.job == 1 && completed.string("result") == "aborted", "\(name): \(completed)")
            let update = lines.events("update.completed").first
            #expect(update?.string("result") == "aborted" && update?.string("id") == "gated", "\(name): \(lines)")
            let replies = lines.filter { $0.reply != nil }
            if client === first {
                #expect(replies.count == 1 && replies.first?.reply == "abort" && replies.first?.int("id") == 7
                        && replies.first?.bool("ok") == true, "\(replies)")
            } else {
                #expect(replies.isEmpty, "replies go only to the client that asked: \(replies)")
            }
        }
    }

    @Test("an installtop abort shows up in a subscriber as job.abortRequested and job.completed aborted")
    func abortByTheCommandLineReachesSubscribers() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let watcher = try RawClient(socket: daemon.socket)
        _ = try await subscribe(watcher)
        let manifest = try daemon.manifest(job: "Gated job", update: "gated", script: daemon.gatedScript())
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        _ = try await readUntilGated(watcher)

        #expect(try await daemon.run(["abort", "1"]).status == 0)
        let lines = try await watcher.read(until: "job.completed") { $0.name == "job.completed" }
        #expect(lines.eventNames.first == "job.abortRequested", "\(lines)")
        #expect(lines.last?.string("result") == "aborted")
    }

    @Test("SIGKILL of a subscribed client mid-job: the job still succeeds and serve keeps serving")
    func killedSubscriberDoesNotHurtTheJob() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let serve = try await daemon.start()
        let python = "/usr/bin/python3"
        try #require(FileManager.default.isExecutableFile(atPath: python), "the killed subscriber is a python3 script")
        // It subscribes, says so, then stops reading: killed with events unread in its socket.
        // It sleeps far longer than any starved test takes to kill it (a 60 s sleep ended by
        // itself, status 0, in a loaded full run); the test's teardown kills it on failure.
        let subscriber = try InstalltopProcess(["-c", """
            import socket, sys, time
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            s.sendall(b'{"command":"subscribe"}\\n')
            data = b''
            while b'"progress"' not in data:
                data += s.recv(65536)
            print('subscribed', flush=True)
            time.sleep(3600)
            """, daemon.socket], in: daemon.folder, executable: python)

        let manifest = try daemon.manifest(job: "Gated job", update: "gated", script: daemon.gatedScript())
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        try await subscriber.waitForOutput("subscribed")
        subscriber.send(SIGKILL)
        #expect(try await subscriber.finish().status == 128 + SIGKILL)

        try daemon.release()
        try await daemon.waitForJob(1, state: "succeeded")
        let job = try #require(try await daemon.statusJob(1))
        #expect(job["result"] as? String == "succeeded", "\(job)")
        #expect(serve.stderr.contains("job 1 completed: succeeded"), "\(serve.stderr)")
        let probe = try RawClient(socket: daemon.socket)
        try probe.send(#"{"command":"abortAll","force":false,"id":2}"#)
        #expect(try await probe.reply(to: 2).bool("ok") == true)
    }

    @Test("a subscriber that shuts down its sending side still gets every event")
    func halfClosedSubscriberKeepsReceiving() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let watcher = try RawClient(socket: daemon.socket)
        _ = try await subscribe(watcher)
        watcher.shutdownSending()
        let manifest = try daemon.manifest(job: "Quick job", update: "quick", script: "/bin/true")
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        let lines = try await watcher.read(until: "job.completed") { $0.name == "job.completed" }
        #expect(lines.eventNames == ["job.queued", "job.started", "update.started", "update.completed", "job.completed"], "\(lines)")
        #expect(lines.last?.string("result") == "succeeded")
    }
}
