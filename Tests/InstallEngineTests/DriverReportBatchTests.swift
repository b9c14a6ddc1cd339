import Dispatch
import InstallEngine
import InstallEngineTesting
import Synchronization
import Testing
import TestProcessSupport

/// Reports a driver makes together, and the batches of the engine's serial queues.
@Suite("Driver reports made together")
struct DriverReportBatchTests {
    @Test("Reports made together: progress the next change supersedes with the same texts is announced once; every text is")
    func supersededProgressIsAnnouncedOnce() async throws {
        let driver = ScriptedDriver()
        let queue = JobQueue(backend: ScriptedBackend())
        let log = EventLog()
        queue.subscribe(log.handler)
        let job = try queue.submit(name: "apt install", updates: [Update(id: "a", title: "a"), Update(id: "b", title: "b")], driver: driver)
        await driver.waitUntilStarted()
        driver.say(.updateStarted(index: 0))
        driver.say(.update(index: 0, .progress(percent: 5, message: "Preparing")))
        driver.say(together: [
            .update(index: 0, .progress(percent: 10, message: "Unpacking")), .jobProgress(percent: 4),
            .update(index: 0, .progress(percent: 30, message: "Unpacking")), .jobProgress(percent: 8),
        ])
        driver.say(together: [
            .update(index: 0, .progress(percent: 40, message: "Configuring")),
            .update(index: 0, .progress(percent: 50, message: "Setting up")), .updateFinished(index: 0, .succeeded),
        ])
        driver.say(.updateStarted(index: 1))
        driver.say(.updateFinished(index: 1, .succeeded))
        driver.end(.exited(0))
        await queue.waitUntilIdle()
        let progress = log.kinds(ofJob: job.id).compactMap { kind -> UpdateProgress? in
            if case .progress(let report) = kind { report } else { nil }
        }
        // One by one these were seven events: the four of "Unpacking" are one, with its last figures.
        #expect(progress.map(\.message) == ["Preparing", "Unpacking", "Configuring", "Setting up"])
        #expect(progress.map(\.updatePercent) == [5, 30, 40, 50])
        #expect(progress.map(\.jobPercent) == [2.5, 15, 20, 25])
        #expect(queue.snapshot().job(job.id)?.result?.resultCode == .succeeded)
    }

    @Test("Reports made together about an update that is not the job's current one: each of its texts is announced (an observed job's packages run side by side)")
    func everyTextOfAnotherUpdateIsAnnounced() async throws {
        let driver = ScriptedDriver()
        let queue = JobQueue(backend: ScriptedBackend())
        let log = EventLog()
        queue.subscribe(log.handler)
        let job = try queue.submit(name: "apt-get install", updates: [Update(id: "a", title: "a"), Update(id: "b", title: "b")], driver: driver)
        await driver.waitUntilStarted()
        driver.say(.updateStarted(index: 0))
        driver.say(.update(index: 0, .progress(percent: 50, message: "unpacked")))
        driver.say(.updateStarted(index: 1))
        driver.say(together: [
            .update(index: 1, .progress(percent: 75, message: "configuring")),
            .update(index: 1, .progress(percent: 100, message: "installed")),
        ])
        driver.say(.updateFinished(index: 1, .succeeded))
        driver.say(.updateFinished(index: 0, .succeeded))
        driver.end(.exited(0))
        await queue.waitUntilIdle()
        let texts = log.kinds(ofJob: job.id).compactMap { kind -> String? in
            if case .progress(let report) = kind, report.index == 1 { report.message } else { nil }
        }
        // Two updates running side by side, two texts of b said together: both are announced.
        #expect(texts.contains("configuring") && texts.last == "installed", "\(texts)")
    }

    @Test("A batch joins the queue's last item while it waits; anything queued after it starts a new one; order is kept")
    func batchesJoinOnlyTheLastWaitingItem() async {
        let queue = SerialWorkQueue()
        let gate = DispatchSemaphore(value: 0)
        let ran = Mutex<[[Int]]>([])
        let record: @Sendable ([Int]) -> Void = { batch in ran.withLock { $0.append(batch) } }
        let started = Atomic(false)
        queue.enqueue {
            started.store(true, ordering: .releasing)
            gate.wait()
        }
        // The runner takes every item queued when it starts: the batches below must be queued
        // after it took the gate's item, or under load it takes the first batch along with it.
        #expect(await eventually { started.load(ordering: .acquiring) })
        var open: SerialWorkBatch<Int>?
        let first = queue.enqueue([1], joining: &open, record)
        let joined = queue.enqueue([2, 3], joining: &open, record)
        queue.enqueue { ran.withLock { $0.append([0]) } }
        let after = queue.enqueue([4], joining: &open, record)
        gate.signal()
        await queue.waitUntilDelivered(after)
        #expect(joined == first)
        #expect(after > first)
        #expect(ran.withLock { $0 } == [[1, 2, 3], [0], [4]])
        // Once its item has run, a batch takes nothing more.
        let later = queue.enqueue([5], joining: &open, record)
        await queue.waitUntilDelivered(later)
        #expect(ran.withLock { $0 }.last == [5])
    }
}
