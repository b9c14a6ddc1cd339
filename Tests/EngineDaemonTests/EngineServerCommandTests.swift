import EngineDaemon
import EngineWire
import Foundation
import InstallEngine
import InstallEngineTesting
import InstallHistory
import Testing
import TestProcessSupport

@Suite("EngineServer: commands over the socket")
struct EngineServerCommandTests {
    /// The engine's refusal of `command`, or `nil` when it was accepted.
    private func refusal(_ client: EngineClient, _ command: WireCommand) -> WireError? {
        do {
            try client.request(command)
            return nil
        } catch {
            guard case .refused(let reason) = error else {
                Issue.record("not a refusal: \(error)")
                return nil
            }
            return reason
        }
    }

    // MARK: - submit

    @Test func submitReturnsTheJobNumbers() async throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let client = try engine.connect()
        let reply = try client.request(.submit([job("one", ["a", "b"]), job("two", ["c"], stopOnFailure: true)]))
        #expect(reply.fields["jobs"] == .array([.integer(1), .integer(2)]))
        let again = try client.request(.submit([job("three", ["d"])]))
        #expect(again.fields["jobs"] == .array([.integer(3)]))
        await engine.queue.waitUntilIdle()
        let jobs = engine.queue.snapshot().jobs
        #expect(jobs.map(\.descriptor.name) == ["one", "two", "three"])
        #expect(jobs.map(\.descriptor.stopOnFailure) == [false, true, false])
        #expect(jobs[0].descriptor.updates == [update("a"), update("b")], "updates arrive whole, commands included")
        #expect(engine.backend.startedUpdateIDs == ["a", "b", "c", "d"])
        #expect(engine.log.contains("submitted job 1: one (2 updates)"))
    }

    @Test func anInvalidJobQueuesNothing() async throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let client = try engine.connect()
        let empty = JobSubmission(name: "empty", operation: .install, updates: [], stopOnFailure: false)
        let refused = refusal(client, .submit([job("fine", ["a"]), empty]))
        #expect(refused?.code == .invalidJob)
        #expect(refused?.message.hasPrefix("job 2 (empty): ") == true, "\(refused?.message ?? "")")

        let commandless = JobSubmission(name: "no command", operation: .install, updates: [Update(id: "x")], stopOnFailure: false)
        #expect(refusal(client, .submit([commandless]))?.code == .invalidJob)
        let uninstall = JobSubmission(
            name: "no uninstall", operation: .uninstall,
            updates: [Update(id: "y", installCommand: .shell("true"))], stopOnFailure: false)
        #expect(refusal(client, .submit([job("fine", ["b"]), uninstall]))?.code == .invalidJob)
        #expect(refusal(client, .submit([]))?.code == .badArgument)

        #expect(engine.queue.snapshot().jobs.isEmpty, "nothing was queued")
        let reply = try client.request(.submit([job("after", ["c"])]))
        #expect(reply.fields["jobs"] == .array([.integer(1)]), "no job number was used up")
        await engine.queue.waitUntilIdle()
        #expect(engine.backend.startedUpdateIDs == ["c"])
    }

    @Test func submitIsRefusedOnceTheEngineStopsTakingJobs() throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        engine.server.refuseSubmissions()
        let client = try engine.connect()
        #expect(refusal(client, .submit([job("late", ["a"])]))?.code == .shuttingDown)
        #expect(engine.queue.snapshot().jobs.isEmpty)
    }

    // MARK: - abort

    @Test func abortAnswersForKnownAndUnknownJobs() async throws {
        let engine = try TestEngine(backend: ScriptedBackend(defaultScript: .hold))
        defer { engine.stop() }
        let client = try engine.connect()
        let unknown = refusal(client, .job(.abort(job: 99, force: false)))
        #expect(unknown == WireError(.unknownJob, "there is no job 99"))
        try client.request(.submit([job("one", ["a"])]))
        await engine.backend.waitUntilStarted("a")
        try client.request(.job(.abort(job: 1, force: false)))
        await engine.queue.waitUntilIdle()
        #expect(engine.queue.snapshot().job(1)?.result?.resultCode == .aborted)
        #expect(refusal(client, .job(.abort(job: 1, force: true))) == WireError(.alreadyCompleted, "job 1 has already completed"))
        try client.request(.job(.abortAll(force: true)))
    }

    // MARK: - cleanup

    @Test func theCleanupReplyComesAfterJobCleanedUp() async throws {
        let engine = try TestEngine(backend: ScriptedBackend(defaultScript: .hold))
        defer { engine.stop() }
        let subscriber = try engine.subscriber()
        defer { subscriber.close() }
        try #require(await eventually { subscriber.messages.contains(.snapshotEnd) })
        try engine.queue.submit(name: "one", updates: [update("a")])
        await engine.backend.waitUntilStarted("a")
        let requestID = try subscriber.client.send(.job(.cleanUp(job: 1)))
        #expect(subscriber.reply(to: requestID) == nil, "the job is still running")
        engine.backend.release("a")
        #expect(await eventually { subscriber.reply(to: requestID) != nil })
        #expect(subscriber.reply(to: requestID)?.isOK == true)
        let messages = subscriber.messages
        let cleaned = messages.firstIndex { if case .event(let event) = $0, case .jobCleanedUp(let cleanUp) = event.kind, cleanUp.job == 1 { true } else { false } }
        let reply = messages.firstIndex { if case .reply(let reply) = $0 { reply.requestID == requestID } else { false } }
        #expect(cleaned != nil && reply != nil && cleaned! < reply!, "job.cleanedUp, then the reply")
        #expect(engine.queue.snapshot().jobs.isEmpty)
        #expect(refusal(try engine.connect(), .job(.cleanUp(job: 1)))?.code == .unknownJob, "it is gone")
    }

    @Test func theCleanupReplyComesAfterJobCleanedUpWhileAnotherJobIsBusy() async throws {
        // Another job floods the engine's callback queue, so job.cleanedUp is delivered by that
        // job's thread, possibly after cleanUp(job:) has returned and the reply was queued.
        let flood = UpdateScript(reports: (0..<30_000).map { .output(.stdout, "line \($0)") })
        let backend = ScriptedBackend(scripts: ["a": .hold, "gate": .hold, "flood": flood])
        let engine = try TestEngine(backend: backend, concurrency: 2)
        defer { engine.stop() }
        let subscriber = try engine.subscriber()
        defer { subscriber.close() }
        try #require(await eventually { subscriber.messages.contains(.snapshotEnd) })
        try engine.queue.submit(name: "cleaned", updates: [update("a")])
        try engine.queue.submit(name: "busy", updates: [update("gate"), update("flood")])
        await backend.waitUntilStarted("a")
        await backend.waitUntilStarted("gate")
        let requestID = try subscriber.client.send(.job(.cleanUp(job: 1)))
        backend.release("gate")
        await backend.waitUntilStarted("flood")
        backend.release("a")
        await engine.queue.waitUntilIdle()
        #expect(await eventually { subscriber.reply(to: requestID) != nil })
        #expect(await eventually {
            subscriber.events.contains { if case .jobCleanedUp(let cleanUp) = $0.kind, cleanUp.job == 1 { true } else { false } }
        })
        let messages = subscriber.messages
        let cleaned = messages.firstIndex { if case .event(let event) = $0, case .jobCleanedUp(let cleanUp) = event.kind, cleanUp.job == 1 { true } else { false } }
        let reply = messages.firstIndex { if case .reply(let reply) = $0 { reply.requestID == requestID } else { false } }
        #expect(cleaned != nil && reply != nil && cleaned! < reply!, "job.cleanedUp at \(cleaned ?? -1), reply at \(reply ?? -1)")
    }

    @Test func cleanupOfAnUnknownJobIsRefused() throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let client = try engine.connect()
        #expect(refusal(client, .job(.cleanUp(job: 5))) == WireError(.unknownJob, "there is no job 5"))
    }

    // MARK: - retry

    @Test func retryQueuesTheFailedUpdatesAsANewJob() async throws {
        let engine = try TestEngine(backend: ScriptedBackend(scripts: ["bad": .fail(status: 2)]))
        defer { engine.stop() }
        let client = try engine.connect()
        try client.request(.submit([job("mixed", ["good", "bad"]), job("clean", ["fine"])]))
        await engine.queue.waitUntilIdle()
        let reply = try client.request(.job(.retry(job: 1)))
        #expect(reply.fields["job"] == .integer(3))
        await engine.queue.waitUntilIdle()
        let retried = try #require(engine.queue.snapshot().job(3))
        #expect(retried.descriptor.updates.map(\.id) == ["bad"])
        #expect(retried.descriptor.name == "mixed (retry)")
        #expect(refusal(client, .job(.retry(job: 2))) == WireError(.nothingToRetry, "job 2 has no failed or aborted updates to retry"))
        #expect(refusal(client, .job(.retry(job: 42)))?.code == .unknownJob)
    }

    @Test func retryOfARunningJobIsRefused() async throws {
        let engine = try TestEngine(backend: ScriptedBackend(defaultScript: .hold))
        defer { engine.stop() }
        let client = try engine.connect()
        try client.request(.submit([job("one", ["a"])]))
        await engine.backend.waitUntilStarted("a")
        #expect(refusal(client, .job(.retry(job: 1)))?.code == .notCompleted)
        engine.backend.release("a")
        await engine.queue.waitUntilIdle()
    }

    // MARK: - history

    @Test func historyIsUnavailableWhenOff() throws {
        let engine = try TestEngine(history: .off("history is off (--no-history)"))
        defer { engine.stop() }
        let client = try engine.connect()
        #expect(refusal(client, .history(limit: 5)) == WireError(.historyUnavailable, "history is off (--no-history)"))
        let durations = try client.request(.durations(updateIDs: ["a"]))
        #expect(durations.fields["durations"] == .object([:]), "no history: no durations, and no refusal")
    }

    @Test func historyEntriesComeFromTheStore() async throws {
        let directory = SocketDirectory()
        let store = try HistoryStore(path: directory.file("history.sqlite3"))
        let engine = try TestEngine(
            backend: ScriptedBackend(scripts: ["bad": .fail(status: 4)]), history: .store(store), directory: directory)
        defer { engine.stop() }
        let recorder = HistoryRecorder(store: store)
        engine.queue.subscribe { event in try? recorder.record(event) }
        let client = try engine.connect()
        try client.request(.submit([job("recorded", ["good", "bad"])]))
        await engine.queue.waitUntilIdle()

        let reply = try client.request(.history(limit: 10))
        let entries = try #require(reply.fields["entries"]?.arrayValue)
        #expect(entries.count == 2)
        #expect(Set(entries.compactMap { $0["updateId"]?.stringValue }) == ["good", "bad"])
        #expect(entries.allSatisfy { $0["job"] == .string("recorded") })
        let bad = try #require(entries.first { $0["updateId"] == .string("bad") })
        #expect(bad["result"] == .string("failed") && bad["unmappedResultCode"] == .integer(4))
        let one = try client.request(.history(limit: 1))
        #expect(one.fields["entries"]?.arrayValue?.count == 1)

        let durations = try client.request(.durations(updateIDs: ["good", "bad", "never"]))
        let known = try #require(durations.fields["durations"]?.objectValue)
        #expect(Set(known.keys) == ["good"], "only succeeded runs have a median")
        #expect(known["good"]?.doubleValue.map { $0 >= 0 } == true)
    }

    // MARK: - runs and undo (issue 35 item 5: the attached monitor's history view)

    @Test func runsComeFromTheStoreAndAreUnavailableWhenOff() throws {
        let off = try TestEngine(history: .off("history is off (--no-history)"))
        defer { off.stop() }
        #expect(refusal(try off.connect(), .runs(limit: 5)) == WireError(.historyUnavailable, "history is off (--no-history)"))

        let directory = SocketDirectory()
        let store = try HistoryStore(path: directory.file("history.sqlite3"))
        let first = try store.reserveJobRun(kind: "apt", name: "apt upgrade", operation: .install, startedAt: Date(timeIntervalSince1970: 1_795_000_000))
        try store.finishJobRun(first, name: "apt upgrade · 1 to upgrade", resultCode: .succeeded, endedAt: Date(timeIntervalSince1970: 1_795_000_060))
        let engine = try TestEngine(history: .store(store), directory: directory)
        defer { engine.stop() }
        let reply = try engine.connect().request(.runs(limit: 10))
        let runs = try #require(reply.fields["runs"]?.arrayValue)
        #expect(runs.count == 1)
        #expect(runs.first?["run"] == .integer(Int(first)) && runs.first?["name"] == .string("apt upgrade · 1 to upgrade"))
        #expect(runs.first?["result"] == .string("succeeded") && runs.first?["undoable"] == .bool(false))
    }

    @Test func undoIsRefusedWhereTheEngineRunsNone() throws {
        let engine = try TestEngine()
        defer { engine.stop() }
        let error = refusal(try engine.connect(), .undo(run: 4))
        #expect(error?.code == .notUndoable && error?.message.contains("installtop apt undo 4") == true, "\(String(describing: error))")
    }

    @Test func undoAnswersWithTheQueuedJobOrTheRefusal() throws {
        let engine = try TestEngine(undo: { run in
            run == 3 ? .success(41) : .failure(WireError(.notUndoable, "run \(run) cannot be undone: it changed no package"))
        })
        defer { engine.stop() }
        let client = try engine.connect()
        #expect(try client.request(.undo(run: 3)).fields["job"] == .integer(41))
        #expect(refusal(client, .undo(run: 2)) == WireError(.notUndoable, "run 2 cannot be undone: it changed no package"))
        #expect(engine.log.contains("undo of run 3 asked by"), "\(engine.log.all)")
    }
}
