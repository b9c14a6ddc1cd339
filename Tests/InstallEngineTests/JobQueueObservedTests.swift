import InstallEngine
import InstallEngineTesting
import Testing
import TestProcessSupport

/// Observed jobs on the engine (rule 28): a foreign transaction running beside installtop's own
/// jobs takes none of their slots.
@Suite("JobQueue: observed jobs take no slot")
struct JobQueueObservedTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    @Test("Concurrency 1 and an observed job running: a queued job with commands still starts, and so does one more observed job")
    func ownJobStarts() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let queue = JobQueue(backend: backend, concurrency: 1, configuration: configuration)
        let foreign = ScriptedDriver()
        let observed = try queue.submit(
            name: "apt-get install nginx — root on pts/1", updates: [update("nginx")], driver: foreign,
            observedBy: QueueMachineObservedTests.initiator)
        await foreign.waitUntilStarted()
        #expect(await eventually { queue.snapshot().job(observed.id)?.phase == .running })

        let own = try queue.submit(name: "manifest", updates: [update("a")])
        #expect(await eventually { backend.startedUpdateIDs == ["a"] }, "the manifest job started beside the observed one")
        #expect(await eventually { queue.snapshot().job(own.id)?.phase == .running })

        let another = ScriptedDriver()
        try queue.submit(name: "dpkg -i b.deb", updates: [update("b")], driver: another, observedBy: QueueMachineObservedTests.initiator)
        await another.waitUntilStarted()

        backend.release("a")
        #expect(await eventually { queue.snapshot().job(own.id)?.phase == .completed })
        #expect(queue.snapshot().job(observed.id)?.phase == .running, "the foreign transaction goes on")
        for driver in [foreign, another] {
            driver.say(.updateStarted(index: 0))
            driver.say(.updateFinished(index: 0, .succeeded))
            driver.end(.exited(0))
        }
        await queue.waitUntilIdle()
        #expect(queue.snapshot().jobs.allSatisfy { $0.result?.resultCode == .succeeded })
    }
}
