import Dispatch
import EngineDaemon
import EngineWire
import InstallEngine
import InstallEngineTesting
import Testing

/// A client that shuts down its sending side and did not subscribe (`printf … | socat`, a
/// bridge whose stdin was a file) is closed by the engine once it has every reply it is owed,
/// also the ones sent later from other threads; before this it waited for ever.
@Suite("EngineServer: a client whose input ended is closed once answered")
struct EngineServerHalfCloseTests {
    /// Two round trips of another client, connected after the test's client shut down its
    /// sending side: the first request is read in the same turn as that end of input at the
    /// latest, and the second only on a later turn, after the one that would have closed the
    /// test's client (the first reply alone is written just before that close: a race).
    private static func letTheLoopCloseWhatItWould(_ engine: TestEngine) throws {
        let other = try engine.connect()
        defer { other.close() }
        for _ in 0..<2 { try other.request(.durations(updateIDs: []), timeout: .seconds(180)) }
    }

    @Test func aOneShotClientGetsItsReplyThenTheEndOfTheStream() throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let client = try RawConnection(path: engine.socketPath)
        client.send(#"{"command":"durations","updates":[],"id":7}"# + "\n")
        client.shutdownSending()
        guard case .reply(let reply)? = try client.nextMessage(timeout: .seconds(180)) else {
            Issue.record("no reply before the end of the stream")
            return
        }
        #expect(reply.requestID == 7 && reply.error == nil)
        #expect(client.readUntilClosed(timeout: .seconds(180)), "the engine closed the connection")
    }

    @Test func aClientThatSendsNothingIsClosed() throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let client = try RawConnection(path: engine.socketPath)
        client.shutdownSending()
        #expect(client.readUntilClosed(timeout: .seconds(180)))
        #expect(client.receivedBytes == 0)
    }

    @Test("a submit whose plan is still being made when the input ends is answered, then closed")
    func theReplyToAPlannedSubmitIsWaitedFor() throws {
        let planner = EngineServerPlanningTests.HeldPlanner()
        let engine = try TestEngine(kinds: JobKinds([planner]))
        defer { engine.stop() }
        defer { planner.release.signal() }
        let apt = JobSubmission(name: "apt", operation: .install, updates: [], stopOnFailure: false,
                                kind: JobKindSpec(kind: planner, spec: ["lab-app"]))
        let client = try RawConnection(path: engine.socketPath)
        client.send(WireCommand.submit([apt]).line(requestID: 3) + "\n")
        #expect(planner.started.wait(timeout: .now() + 180) == .success, "the plan was asked for")
        client.shutdownSending()
        try Self.letTheLoopCloseWhatItWould(engine)
        #expect(client.isQuiet, "not closed while its reply is owed")

        planner.release.signal()
        guard case .reply(let reply)? = try client.nextMessage(timeout: .seconds(180)) else {
            Issue.record("the engine closed before the reply to the submit")
            return
        }
        #expect(reply.requestID == 3 && reply.error == nil && reply.fields["jobs"] == .array([.integer(1)]), "\(reply)")
        #expect(client.readUntilClosed(timeout: .seconds(180)), "closed after the reply")
    }

    @Test("a cleanup of a running job, sent before the input ends, is answered once the job is gone, then closed")
    func theReplyToACleanupIsWaitedFor() async throws {
        let engine = try TestEngine(backend: ScriptedBackend(defaultScript: .hold))
        defer { engine.stop() }
        try engine.queue.submit(name: "one", updates: [update("a")])
        await engine.backend.waitUntilStarted("a")
        let client = try RawConnection(path: engine.socketPath)
        client.send(WireCommand.job(.cleanUp(job: 1)).line(requestID: 4) + "\n")
        client.shutdownSending()
        try Self.letTheLoopCloseWhatItWould(engine)
        #expect(client.isQuiet, "not closed while the job runs: its reply is owed")

        engine.backend.release("a")
        guard case .reply(let reply)? = try client.nextMessage(timeout: .seconds(180)) else {
            Issue.record("the engine closed before the reply to the cleanup")
            return
        }
        #expect(reply.requestID == 4 && reply.error == nil, "\(reply)")
        #expect(client.readUntilClosed(timeout: .seconds(180)), "closed after the reply")
        #expect(engine.queue.snapshot().jobs.isEmpty)
    }

    @Test func aCleanupRefusedFromTheCallbackThreadIsAnsweredThenClosed() throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let client = try RawConnection(path: engine.socketPath)
        client.send(WireCommand.job(.cleanUp(job: 9)).line(requestID: 5) + "\n")
        client.shutdownSending()
        guard case .reply(let reply)? = try client.nextMessage(timeout: .seconds(180)) else {
            Issue.record("the engine closed before the refusal")
            return
        }
        #expect(reply.requestID == 5 && reply.error?.code == .unknownJob, "\(reply)")
        #expect(client.readUntilClosed(timeout: .seconds(180)))
    }

    @Test func aSubscriberWhoseInputEndedStaysAndGetsEvents() async throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let client = try RawConnection(path: engine.socketPath)
        client.send(WireCommand.subscribe.line(requestID: 1) + "\n")
        client.shutdownSending()
        var sawEnd = false
        while !sawEnd, let message = try client.nextMessage(timeout: .seconds(180)) {
            if case .snapshotEnd = message { sawEnd = true }
        }
        #expect(sawEnd, "the snapshot came whole")
        try engine.queue.submit(name: "after", updates: [update("a")])
        var completed = false
        while !completed, let message = try client.nextMessage(timeout: .seconds(180)) {
            if case .event(let event) = message, case .jobCompleted = event.kind { completed = true }
        }
        #expect(completed, "still connected after its input ended: the job's events came")
    }
}
