import EngineDaemon
import Glibc
import EngineWire
import InstallEngine
import InstallEngineTesting
import Testing
import TestProcessSupport

@Suite("EngineServer: subscribe, snapshot, live events, slow subscribers")
struct EngineServerSubscribeTests {
    /// Every update reports progress, a message and output, so each kind of event crosses the wire.
    static let chatty = UpdateScript(reports: [
        .progress(percent: 50, message: "half"), .output(.stdout, "out é \"q\""), .output(.stderr, "err"), .message("almost"),
    ])

    @Test func aLateSubscriberGetsTheSnapshotThenEveryLiveEventOnce() async throws {
        let backend = ScriptedBackend(scripts: ["held": .hold, "bad": .fail(status: 3)], defaultScript: Self.chatty)
        let engine = try TestEngine(backend: backend)
        defer { engine.stop() }
        let log = EventLog()
        engine.queue.subscribe(log.handler)
        try engine.queue.submit(name: "done", updates: [update("a"), update("bad")])
        try engine.queue.submit(name: "running", updates: [update("held"), update("c")])
        await backend.waitUntilStarted("held")
        try #require(await eventually { engine.queue.snapshot().job(2)?.updates[0].result.resultCode == .inProgress })

        let subscriber = try engine.subscriber()
        defer { subscriber.close() }
        try #require(await eventually { subscriber.messages.contains(.snapshotEnd) })
        let atSnapshot = subscriber.messages
        #expect(atSnapshot.first == .reply(WireReply(command: "subscribe", requestID: 1)))
        #expect(atSnapshot.dropFirst().first == .snapshotBegin(jobs: 2))
        #expect(
            WireView.jobs(subscriber.model, finishedUpdateStatus: false) == WireView.jobs(engine.queue.snapshot(), finishedUpdateStatus: false),
            "the snapshot is the queue as it stands")
        #expect(WireView.jobs(subscriber.model) == WireView.jobs(engine.queue.snapshot()))

        backend.release("held")
        try engine.queue.submit(name: "later", updates: [update("d")])
        await engine.queue.waitUntilIdle()
        let expected = WireView.jobs(engine.queue.snapshot(), finishedUpdateStatus: false)
        #expect(await eventually { WireView.jobs(subscriber.model, finishedUpdateStatus: false) == expected })
        #expect(WireView.jobs(subscriber.model, finishedUpdateStatus: false) == expected)

        // Nothing lost or repeated: the live events are exactly the engine's events after the
        // ones the snapshot stands for.
        let all = WireView.kinds(log.events)
        let live = WireView.kinds(subscriber.liveEvents)
        try #require(live.count <= all.count)
        #expect(Array(all.suffix(live.count)) == live)
        var beforeLive = QueueModel()
        for event in log.events.prefix(all.count - live.count) { beforeLive.apply(event) }
        var replayed = QueueModel()
        for event in subscriber.replayEvents { replayed.apply(event) }
        #expect(WireView.jobs(replayed, finishedUpdateStatus: false) == WireView.jobs(beforeLive, finishedUpdateStatus: false))
        #expect(live.contains { if case .jobCompleted(let completion) = $0, completion.job == 2 { true } else { false } })
        #expect(subscriber.error == nil)
    }

    @Test func aSubscriberOfAnIdleEngineGetsAnEmptySnapshot() async throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let subscriber = try engine.subscriber()
        defer { subscriber.close() }
        #expect(await eventually { subscriber.messages.count == 3 })
        #expect(subscriber.messages == [
            .reply(WireReply(command: "subscribe", requestID: 1)), .snapshotBegin(jobs: 0), .snapshotEnd,
        ])
        try subscriber.client.send(.subscribe)
        #expect(await eventually { subscriber.reply(to: 2) != nil })
        #expect(subscriber.reply(to: 2)?.error?.code == .badArgument, "subscribing twice is refused")
    }

    @Test func twoClientsSeeTheSameEvents() async throws {
        let engine = try TestEngine(backend: ScriptedBackend(defaultScript: Self.chatty), concurrency: 2)
        defer { engine.stop() }
        let log = EventLog()
        engine.queue.subscribe(log.handler)
        let first = try engine.subscriber()
        let second = try engine.subscriber()
        defer {
            first.close()
            second.close()
        }
        try #require(await eventually { first.messages.contains(.snapshotEnd) && second.messages.contains(.snapshotEnd) })
        let commands = try engine.connect()
        let reply = try commands.request(.submit([job("one", ["a", "b"]), job("two", ["c"]), job("three", ["d", "e", "f"])]))
        #expect(reply.fields["jobs"] == .array([.integer(1), .integer(2), .integer(3)]))
        await engine.queue.waitUntilIdle()
        let expected = WireView.kinds(log.events)
        #expect(await eventually { first.liveEvents.count >= expected.count && second.liveEvents.count >= expected.count })
        #expect(WireView.kinds(first.liveEvents) == expected)
        #expect(WireView.kinds(second.liveEvents) == expected)
        #expect(expected.count { if case .output = $0 { true } else { false } } == 6 * 2, "two lines of output per update")
    }

    @Test func onlySubscribersGetEvents() async throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let log = EventLog()
        engine.queue.subscribe(log.handler)
        let subscriber = try engine.subscriber()
        let bystander = MessageCollector(try engine.connect())
        defer {
            subscriber.close()
            bystander.close()
        }
        try #require(await eventually { subscriber.messages.contains(.snapshotEnd) })
        try engine.queue.submit(name: "one", updates: [update("a")])
        await engine.queue.waitUntilIdle()
        #expect(await eventually { !log.events.isEmpty && subscriber.liveEvents.count == log.events.count })
        try bystander.client.send(.job(.abortAll(force: false)))
        #expect(await eventually { bystander.reply(to: 1) != nil })
        #expect(bystander.messages == [.reply(WireReply(command: "abortAll", requestID: 1))])
    }

    @Test func aSubscriberThatStopsReadingIsClosedAndOthersGetEverything() async throws {
        // About 5.6 MB of events against a 1 MiB limit: far more than the socket buffers and the
        // limit together. They come in ten bursts of about 0.56 MB, each released once the
        // reading client has all of the previous one, so that client never lags by the limit
        // even in a slow debug build (the engine never waits for clients). The sleeper reads
        // nothing while events wait for it, so it is closed after the 2 s given here.
        let bursts = 10
        let linesPerBurst = 2_000
        let (backend, ids) = Self.burstBackend(bursts: bursts, linesPerBurst: linesPerBurst)
        let engine = try TestEngine(backend: backend, backlogLimit: 1 << 20, idleReaderTimeout: .seconds(2))
        defer { engine.stop() }

        let sleeper = try RawConnection(path: engine.socketPath)
        sleeper.send(WireCommand.subscribe.line() + "\n")
        var sawEnd = false
        while !sawEnd, let message = try sleeper.nextMessage() { sawEnd = message == .snapshotEnd }
        try #require(sawEnd, "the sleeper read its snapshot, and from now on reads nothing")
        let reader = try engine.subscriber()
        defer { reader.close() }
        try #require(await eventually { reader.messages.contains(.snapshotEnd) })

        try engine.queue.submit(name: "flood", updates: ids.map(update))
        // Every line reached the reader, or a note counting it: a reader that falls behind
        // (past a quarter of the limit, likely in a loaded debug build) has lines skipped.
        let outputs = { reader.liveEvents.reduce(0) { count, event in
            guard case .output(let output) = event.kind else { return count }
            let (stream, line) = (output.stream, output.line)
            guard stream == .stderr, line.hasSuffix("of output skipped here: this client fell behind") else { return count + 1 }
            return count + (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0)
        } }
        for (index, id) in ids.enumerated() {
            await backend.waitUntilStarted(id)
            let caughtUp = await eventually { outputs() == (index + 1) * linesPerBurst }
            try #require(caughtUp, "burst \(index): \(outputs()) lines")
            backend.release(id)
        }
        await engine.queue.waitUntilIdle()
        #expect(await eventually { reader.liveEvents.contains { if case .jobCompleted = $0.kind { true } else { false } } })
        #expect(outputs() == bursts * linesPerBurst, "the reading client got every line or a note of it")
        #expect(
            await eventually { engine.log.contains("client 1 (pid \(getpid())) closed: it read nothing for 2 s") }, "\(engine.log.all)")
        #expect(!engine.log.contains("client 2"), "the reading client was not dropped: \(engine.log.all)")
        #expect(sleeper.readUntilClosed(), "the sleeper's connection was closed")
        #expect(sleeper.receivedBytes < 3 << 20, "the sleeper was dropped long before the flood was through")
        #expect(!reader.ended)
    }

    @Test func eventsAfterABurstAreNotLeftWaiting() async throws {
        // Each burst fills the client's socket, so the I/O thread is mid-write when the last
        // events arrive; then the update waits, and nothing else happens in the engine.
        let bursts = 3
        let linesPerBurst = 3_000
        let (backend, ids) = Self.burstBackend(bursts: bursts, linesPerBurst: linesPerBurst)
        let engine = try TestEngine(backend: backend)
        defer { engine.stop() }
        let reader = try engine.subscriber()
        defer { reader.close() }
        try #require(await eventually { reader.messages.contains(.snapshotEnd) })
        try engine.queue.submit(name: "bursts", updates: ids.map(update))
        let outputs = { reader.liveEvents.count { if case .output = $0.kind { true } else { false } } }
        var stuck: [String] = []
        for (index, id) in ids.enumerated() {
            await backend.waitUntilStarted(id)
            let target = (index + 1) * linesPerBurst
            if !(await eventually { outputs() == target }) {
                stuck.append("burst \(index): \(outputs() - index * linesPerBurst) of \(linesPerBurst) lines after 60 s")
            }
            backend.release(id)
        }
        await engine.queue.waitUntilIdle()
        #expect(stuck.isEmpty, "\(stuck)")
        #expect(outputs() == bursts * linesPerBurst)
    }

    /// Updates `burst0`, `burst1` … that each print `linesPerBurst` lines of about 200 bytes,
    /// then wait to be released.
    private static func burstBackend(bursts: Int, linesPerBurst: Int) -> (ScriptedBackend, [String]) {
        let text = String(repeating: "x", count: 200)
        let burst = UpdateScript(reports: (0..<linesPerBurst).map { .output(.stdout, "\($0) \(text)") }, ending: .whenReleased)
        let ids = (0..<bursts).map { "burst\($0)" }
        return (ScriptedBackend(scripts: Dictionary(uniqueKeysWithValues: ids.map { ($0, burst) })), ids)
    }
}
