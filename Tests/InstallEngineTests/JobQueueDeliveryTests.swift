import Dispatch
import Foundation
import InstallEngine
import InstallEngineTesting
import Testing
import TestProcessSupport

/// Subscribers run on the queue's own executor, never on the thread of a command or a driver:
/// a subscriber that blocks (a history write waiting for a lock) cannot hold up the monitor's
/// key handling or a driver's reader.
@Suite("JobQueue: nothing is delivered on the caller's thread")
struct JobQueueDeliveryTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    /// Blocks the subscriber on the first event `blocksOn` accepts until `release()`.
    private final class BlockingSubscriber: Sendable {
        let blocked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let isBlocked = LockedValue(false)
        private let blocksOn: @Sendable (EngineEvent.Kind) -> Bool

        init(blocksOn: @escaping @Sendable (EngineEvent.Kind) -> Bool) {
            self.blocksOn = blocksOn
        }

        func handle(_ event: EngineEvent) {
            guard blocksOn(event.kind), !isBlocked.value else { return }
            isBlocked.set(true)
            release.wait()
        }
    }

    /// Runs `body` on a thread of its own and says whether it returned within `timeout`.
    private func returns(within timeout: Duration, _ body: @escaping @Sendable () -> Void) async -> Bool {
        let returned = LockedValue(false)
        Thread.detachNewThread {
            body()
            returned.set(true)
        }
        return await eventually(timeout: timeout) { returned.value }
    }

    @Test("An abort (the monitor's key) returns while a subscriber blocks on the event it causes")
    func abortReturnsWhileSubscriberBlocks() async throws {
        let backend = ScriptedBackend(defaultScript: .hold)
        let queue = JobQueue(backend: backend, configuration: configuration)
        let subscriber = BlockingSubscriber { kind in
            if case .jobAbortRequested = kind { true } else { false }
        }
        queue.subscribe(subscriber.handle)
        let job = try queue.submit(name: "one", updates: [update("a")])
        await backend.waitUntilStarted("a")
        // Under load a slow delivery is fine; a caller that runs the subscriber never returns.
        let returned = await returns(within: .seconds(30)) { try? queue.abort(job: job.id) }
        #expect(await eventually { subscriber.isBlocked.value }, "the subscriber saw the abort")
        #expect(returned, "abort(job:) waited for a subscriber")
        subscriber.release.signal()
        await queue.waitUntilIdle()
        #expect(queue.snapshot().job(job.id)?.result?.resultCode == .aborted)
    }

    @Test("A driver's report returns while a subscriber blocks on what it reported")
    func driverReportReturnsWhileSubscriberBlocks() async throws {
        let driver = ScriptedDriver()
        let queue = JobQueue(backend: ScriptedBackend(), configuration: configuration)
        let subscriber = BlockingSubscriber { kind in
            if case .updateStarted = kind { true } else { false }
        }
        queue.subscribe(subscriber.handle)
        let job = try queue.submit(name: "driven", updates: [Update(id: "a"), Update(id: "b")], driver: driver)
        await driver.waitUntilStarted()
        let returned = await returns(within: .seconds(30)) {
            driver.say(.updateStarted(index: 0))
            driver.say(.updateFinished(index: 0, DriverVerdict(resultCode: .succeeded)))
        }
        #expect(await eventually { subscriber.isBlocked.value }, "the subscriber saw the start")
        #expect(returned, "the driver's reports waited for a subscriber")
        subscriber.release.signal()
        driver.end()
        await queue.waitUntilIdle()
        #expect(queue.snapshot().job(job.id)?.updates.first?.result.resultCode == .succeeded)
    }
}
