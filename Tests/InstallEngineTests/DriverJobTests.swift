import Foundation
import InstallEngine
import InstallEngineTesting
import Testing

/// The driver seam through the real runner and queue, with the scripted driver.
@Suite("Driver jobs through the queue")
struct DriverJobTests {
    private func updates(_ ids: String...) -> [Update] {
        // A driver job's updates need no commands.
        ids.map { Update(id: $0, title: "Package \($0)") }
    }

    @Test("A driver runs the whole job; its reports become the usual events; nothing else is spawned")
    func runsThroughTheQueue() async throws {
        let backend = ScriptedBackend()
        let driver = ScriptedDriver()
        let queue = JobQueue(backend: backend)
        let log = EventLog()
        queue.subscribe(log.handler)
        let job = try queue.submit(name: "apt install", updates: updates("libfoo", "foo"), driver: driver)
        await driver.waitUntilStarted()
        #expect(driver.requests.map { $0.updates.map(\.id) } == [["libfoo", "foo"]])
        driver.say(.updateStarted(index: 0))
        driver.say(.update(index: 0, .progress(percent: 40, message: "unpacking")))
        driver.say(.updateFinished(index: 0, .succeeded))
        driver.say(.updateStarted(index: 1))
        driver.say(.updateFinished(index: 1, .succeeded))
        driver.end(.exited(0))
        await queue.waitUntilIdle()
        let result = try #require(queue.snapshot().job(job.id)?.result)
        #expect(result.resultCode == .succeeded)
        #expect(backend.startedUpdateIDs.isEmpty)
        let progress = log.kinds(ofJob: job.id).compactMap { kind -> UpdateProgress? in
            if case .progress(let report) = kind { report } else { nil }
        }
        #expect(progress.map(\.message) == ["unpacking"])
        #expect(progress.first?.jobPercent == 20)
    }

    @Test("Abort asks the driver for a safe stop; a second abort kills it")
    func abortAndForce() async throws {
        let driver = ScriptedDriver()
        let queue = JobQueue(backend: ScriptedBackend())
        let job = try queue.submit(name: "apt upgrade", updates: updates("a", "b"), driver: driver)
        await driver.waitUntilStarted()
        driver.say(.updateStarted(index: 0))
        try queue.abort(job: job.id)
        await driver.waitUntilStopRequested()
        #expect(driver.kills == 0)
        try queue.abort(job: job.id)
        await queue.waitUntilIdle()
        #expect(driver.kills == 1)
        let result = try #require(queue.snapshot().job(job.id)?.result)
        #expect(result.resultCode == .aborted)
        #expect(result.updateResults[0].hResult == .operationCancelled)
        #expect(result.updateResults[1].hResult == .callCancelled)
    }

    @Test("An abort that arrives before the driver has started reaches it once it has")
    func abortBeforeTheDriverExists() async throws {
        let driver = ScriptedDriver()
        let queue = JobQueue(backend: ScriptedBackend())
        let job = try queue.submit(name: "apt", updates: updates("a"), driver: driver)
        try? queue.abort(job: job.id, force: true)
        await queue.waitUntilIdle()
        let result = try #require(queue.snapshot().job(job.id)?.result)
        #expect(result.resultCode == .aborted)
    }

    @Test("A retried driver job runs through the same driver")
    func retryKeepsTheDriver() async throws {
        let driver = ScriptedDriver()
        let queue = JobQueue(backend: ScriptedBackend())
        let job = try queue.submit(name: "apt", updates: updates("a", "b"), driver: driver)
        await driver.waitUntilStarted()
        driver.say(.updateFinished(index: 0, .succeeded))
        driver.end(.exited(100))
        await queue.waitUntilIdle()
        let again = try queue.retry(job: job.id)
        #expect(again.updates.map(\.id) == ["b"])
        await driver.waitUntilStarted(times: 2)
        #expect(driver.requests.last?.updates.map(\.id) == ["b"])
        driver.say(.updateFinished(index: 0, .succeeded))
        driver.end(.exited(0))
        await queue.waitUntilIdle()
        #expect(queue.snapshot().job(again.id)?.result?.resultCode == .succeeded)
    }
}
