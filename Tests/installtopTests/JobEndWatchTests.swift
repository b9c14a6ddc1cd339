import Foundation
import InstallEngine
import InstallEngineTesting
import Synchronization
import Testing
import TestProcessSupport
@testable import installtop

/// What follows an undo queued from the monitor (its staged files removed, marks and conffile
/// records given back) runs once, whichever way the job ends: completed, or declined (which
/// leaves the queue without completing), and also when it ended before it was watched.
@Suite("JobEndWatch: once, at the job's end")
struct JobEndWatchTests {
    private func update(_ id: String) -> Update {
        Update(id: id, title: id, installCommand: .argv(["install", id]), uninstallCommand: .argv(["uninstall", id]))
    }

    @Test("a job that completes: the action runs once; another job's end does not run it")
    func completed() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let queue = JobQueue(backend: backend)
        let runs = Atomic<Int>(0)
        let watch = JobEndWatch(queue: queue) { runs.add(1, ordering: .relaxed) }
        let other = try queue.submit(name: "other", updates: [update("other")])
        let watched = try queue.submit(name: "watched", updates: [update("watched")])
        watch.watch(job: watched.id)
        backend.release("other")
        #expect(await eventually { queue.snapshot().job(other.id)?.phase == .completed })
        #expect(runs.load(ordering: .relaxed) == 0, "another job's end is not this one's")
        backend.release("watched")
        #expect(await eventually { runs.load(ordering: .relaxed) == 1 })
        try await queue.cleanUp(job: watched.id)
        await queue.waitUntilIdle()
        #expect(runs.load(ordering: .relaxed) == 1, "once, not again at the clean-up")
    }

    @Test("a job awaiting a yes that is declined leaves without completing: the action runs")
    func declined() async throws {
        let queue = JobQueue(backend: ScriptedBackend(defaultScript: .succeed))
        let runs = Atomic<Int>(0)
        let watch = JobEndWatch(queue: queue) { runs.add(1, ordering: .relaxed) }
        let job = try queue.submit(name: "undo", operation: .uninstall, updates: [update("a")], awaitsConfirmation: true)
        watch.watch(job: job.id)
        try queue.decline(job: job.id)
        #expect(await eventually { runs.load(ordering: .relaxed) == 1 })
    }

    @Test("a job that ended before it was watched: the action runs at the watch; a cancelled watch never runs it")
    func endedEarlyAndCancelled() async throws {
        let queue = JobQueue(backend: ScriptedBackend(defaultScript: .succeed))
        let runs = Atomic<Int>(0)
        let watch = JobEndWatch(queue: queue) { runs.add(1, ordering: .relaxed) }
        let job = try queue.submit(name: "quick", updates: [update("a")])
        await queue.waitUntilIdle()
        #expect(runs.load(ordering: .relaxed) == 0)
        watch.watch(job: job.id)
        #expect(await eventually { runs.load(ordering: .relaxed) == 1 })

        let cancelled = Atomic<Int>(0)
        let never = JobEndWatch(queue: queue) { cancelled.add(1, ordering: .relaxed) }
        never.cancel()
        let second = try queue.submit(name: "second", updates: [update("b")])
        never.watch(job: second.id)
        await queue.waitUntilIdle()
        #expect(cancelled.load(ordering: .relaxed) == 0)
    }
}
