import InstallEngine
import InstallEngineTesting
import Synchronization
import Testing
import TestProcessSupport

@Suite("JobQueue: ordering, concurrency, commands and replay")
struct JobQueueTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    @Test("Jobs run in order, one at a time by default, with the JSON contract's event sequence")
    func jobsRunInOrder() async throws {
        let backend = ScriptedBackend(defaultScript: UpdateScript(reports: [.progress(percent: 50, message: "half")]))
        let queue = JobQueue(backend: backend, configuration: configuration)
        let log = EventLog()
        queue.subscribe(log.handler)
        let first = try queue.submit(name: "one", updates: [update("a"), update("b")])
        let second = try queue.submit(name: "two", updates: [update("c")])
        await queue.waitUntilIdle()
        #expect(first.id == 1 && second.id == 2)
        #expect(backend.startedUpdateIDs == ["a", "b", "c"])
        let ok = UpdateInstallationResult(resultCode: .succeeded)
        let kinds = log.kinds(ofJob: 1).map { kind -> String in
            switch kind {
            case .jobQueued: "queued"
            case .jobStarted: "started"
            case .updateStarted(let start): "update.started \(start.index)"
            case .progress(let progress): "progress \(progress.index) \(progress.updatePercent ?? -1) \(progress.jobPercent) \(progress.message ?? "")"
            case .updateCompleted(let completion): "update.completed \(completion.index) \(completion.result.resultCode == ok.resultCode)"
            case .jobCompleted(let completion): "completed \(completion.result.resultCode.name)"
            default: "other"
            }
        }
        #expect(kinds == [
            "queued", "started",
            "update.started 0", "progress 0 50.0 25.0 half", "update.completed 0 true",
            "update.started 1", "progress 1 50.0 75.0 half", "update.completed 1 true",
            "completed succeeded",
        ])
        // Job 2 starts only after job 1 completed.
        let order = log.kinds.compactMap { kind -> String? in
            switch kind {
            case .jobStarted(let start): "start \(start.job)"
            case .jobCompleted(let completion): "end \(completion.job)"
            default: nil
            }
        }
        #expect(order == ["start 1", "end 1", "start 2", "end 2"])
    }

    @Test("--concurrency 2 runs two jobs at once")
    func concurrency() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let queue = JobQueue(backend: backend, concurrency: 2, configuration: configuration)
        for id in ["a", "b", "c"] { try queue.submit(name: id, updates: [update(id)]) }
        await backend.waitUntilStarted("a")
        await backend.waitUntilStarted("b")
        #expect(backend.startedUpdateIDs.sorted() == ["a", "b"])
        backend.release("a")
        await backend.waitUntilStarted("c")
        backend.release("b")
        backend.release("c")
        await queue.waitUntilIdle()
        #expect(queue.snapshot().jobs.allSatisfy { $0.result?.resultCode == .succeeded })
    }

    @Test("Rule 13: aborting a queued job completes it at once, every update aborted, and it never runs")
    func abortQueuedJob() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let queue = JobQueue(backend: backend, configuration: configuration)
        let log = EventLog()
        queue.subscribe(log.handler)
        try queue.submit(name: "running", updates: [update("a")])
        let waiting = try queue.submit(name: "waiting", updates: [update("b"), update("c")])
        await backend.waitUntilStarted("a")
        try queue.abort(job: waiting.id)
        #expect(await eventually { queue.snapshot().job(waiting.id)?.phase == .completed })
        let job = try #require(queue.snapshot().job(waiting.id))
        #expect(job.result?.resultCode == .aborted)
        #expect(job.updates.allSatisfy { $0.result.hResult == .callCancelled })
        #expect(throws: JobCommandError.alreadyCompleted(waiting.id)) { try queue.abort(job: waiting.id) }
        #expect(throws: JobCommandError.unknownJob(99)) { try queue.abort(job: 99) }
        backend.release("a")
        await queue.waitUntilIdle()
        #expect(backend.startedUpdateIDs == ["a"])
        #expect(log.kinds(ofJob: waiting.id).contains(.jobAbortRequested(job: waiting.id, force: false)))
    }

    @Test("abortAll aborts queued jobs first, then running ones")
    func abortAll() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let queue = JobQueue(backend: backend, configuration: configuration)
        try queue.submit(name: "one", updates: [update("a")])
        try queue.submit(name: "two", updates: [update("b")])
        await backend.waitUntilStarted("a")
        queue.abortAll()
        await queue.waitUntilIdle()
        #expect(backend.startedUpdateIDs == ["a"])
        #expect(queue.snapshot().jobs.map { $0.result?.resultCode } == [.aborted, .aborted])
    }

    @Test("cleanUp waits for a running job, then removes it from the queue")
    func cleanUpRemoves() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let queue = JobQueue(backend: backend, configuration: configuration)
        let log = EventLog()
        queue.subscribe(log.handler)
        let job = try queue.submit(name: "one", updates: [update("a")])
        await backend.waitUntilStarted("a")
        // Both cleaners have begun before the job ends (each checks for the job as it begins,
        // before its first suspension): the engine runs apart from the tasks' pool, so a
        // cleaner that began late could find the job already gone.
        final class Begun: Sendable { let count = Atomic(0) }
        let begun = Begun()
        let cleaner = Task {
            begun.count.add(1, ordering: .relaxed)
            try await queue.cleanUp(job: job.id)
        }
        let secondCleaner = Task {
            begun.count.add(1, ordering: .relaxed)
            try await queue.cleanUp(job: job.id)
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while begun.count.load(ordering: .relaxed) < 2, ContinuousClock.now < deadline { await Task.yield() }
        #expect(queue.snapshot().job(job.id) != nil, "still there while it runs")
        backend.release("a")
        try await cleaner.value
        try await secondCleaner.value
        #expect(log.kinds.filter { $0 == .jobCleanedUp(job: job.id) }.count == 1)
        #expect(queue.snapshot().job(job.id) == nil)
        #expect(log.kinds.last == .jobCleanedUp(job: job.id))
        await #expect(throws: JobCommandError.unknownJob(job.id)) { try await queue.cleanUp(job: job.id) }
    }

    @Test("retry queues only the failed and aborted updates as a new job")
    func retry() async throws {
        let backend = ScriptedBackend(scripts: ["bad": .fail()])
        let queue = JobQueue(backend: backend, configuration: configuration)
        let job = try queue.submit(name: "mixed", updates: [update("good"), update("bad")])
        await queue.waitUntilIdle()
        let again = try queue.retry(job: job.id)
        #expect(again.updates.map(\.id) == ["bad"])
        #expect(again.name == "mixed (retry)")
        await queue.waitUntilIdle()
        let clean = try queue.submit(name: "clean", updates: [update("good")])
        await queue.waitUntilIdle()
        #expect(throws: JobCommandError.nothingToRetry(clean.id)) { try queue.retry(job: clean.id) }
    }

    @Test("submit refuses what the installer would refuse, and queues nothing")
    func submitValidates() {
        let queue = JobQueue(backend: ScriptedBackend(), configuration: configuration)
        #expect(throws: InstallerError.noUpdate) { try queue.submit(name: "empty", updates: []) }
        #expect(queue.snapshot().jobs.isEmpty)
    }

    @Test("A late subscriber first gets a replay that rebuilds the same model")
    func lateSubscriberReplay() async throws {
        let backend = ScriptedBackend(scripts: [
            "a": UpdateScript(reports: [.output(.stdout, "hello"), .progress(percent: 30, message: "working")], ending: .whenReleased),
        ])
        let queue = JobQueue(backend: backend, configuration: configuration)
        try queue.submit(name: "one", updates: [update("a"), update("b")])
        try queue.submit(name: "two", updates: [update("c")])
        #expect(await eventually { queue.snapshot().job(1)?.updates[0].percent == 30 })
        let log = EventLog()
        queue.subscribe(log.handler)
        #expect(await eventually { log.events.count >= 5 })
        var rebuilt = QueueModel()
        for event in log.events { rebuilt.apply(event) }
        #expect(rebuilt == queue.snapshot())
        #expect(rebuilt.job(1)?.updates[0].output.last?.text == "hello")
        backend.release("a")
        await queue.waitUntilIdle()
        var live = QueueModel()
        for event in log.events { live.apply(event) }
        #expect(live.jobs.map { $0.result?.resultCode } == [.succeeded, .succeeded])
    }

    @Test("events() is an AsyncSequence of the same events")
    func asyncEvents() async throws {
        let queue = JobQueue(backend: ScriptedBackend(), configuration: configuration)
        let stream = queue.events()
        try queue.submit(name: "one", updates: [update("a")])
        var seen: [EngineEvent.Kind] = []
        for await event in stream {
            seen.append(event.kind)
            if case .jobCompleted = event.kind { break }
        }
        #expect(seen.count == 5)
    }
}
