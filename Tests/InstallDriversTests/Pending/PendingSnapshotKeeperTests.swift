import EngineWire
import Foundation
import InstallDrivers
import InstallEngine
import InstallEngineTesting
import Synchronization
import Testing

/// When the engine's keeper computes the pending snapshot: at start, after every job that may
/// have changed the root (a driver's, an observed one), on
/// request, and never while one of its package jobs runs (a computation waits for it). The
/// snapshots are counted, not read from apt: each says in its package count which one it is.
@Suite("pending: the engine's keeper")
struct PendingSnapshotKeeperTests {
    @Test("First snapshot at start; a request while a package job runs waits for its end, and a wait is answered at once, saying computing")
    func waitsForPackageJobs() async throws {
        let computed = Atomic<Int>(0)
        let queue = JobQueue(backend: ScriptedBackend())
        let keeper = PendingSnapshotKeeper(queue: queue, aptConfig: nil) {
            let number = computed.add(1, ordering: .sequentiallyConsistent).newValue
            return PendingSnapshot(computedAt: Date(), packages: (0..<number).map {
                PendingPackage(name: "p\($0)", oldVersion: "1", newVersion: "2", origin: "localhost")
            })
        }
        keeper.start()
        defer { keeper.stop() }
        #expect(try await eventually(timeout: .seconds(60)) { try pendingCount(keeper.current()) == 1 && !keeper.current().computing })

        let driver = ScriptedDriver()
        _ = try queue.submit(name: "apt upgrade", updates: [Update(id: "lab-app")], driver: driver)
        await driver.waitUntilStarted()
        // The job's start is delivered to the keeper on the queue's callback thread.
        queue.waitUntilDelivered()
        keeper.recompute()
        let answered = Mutex<PendingState?>(nil)
        keeper.whenSettled { state in answered.withLock { $0 = state } }
        let atOnce = try #require(answered.withLock { $0 }, "a wait is not held up by a running package job")
        #expect(atOnce.computing, "a newer snapshot is owed after the job")
        #expect(try pendingCount(atOnce) == 1 && computed.load(ordering: .sequentiallyConsistent) == 1, "nothing computed while the job runs")

        driver.say(.updateStarted(index: 0))
        driver.say(.updateFinished(index: 0, .succeeded))
        driver.end(.exited(0))
        #expect(try await eventually(timeout: .seconds(60)) { try pendingCount(keeper.current()) == 2 && !keeper.current().computing },
                "one snapshot after the job, for the request made during it and the job's end together")
        #expect(computed.load(ordering: .sequentiallyConsistent) == 2)
    }

    @Test("A job of commands neither holds a computation back nor asks for one; a request after it computes one")
    func otherJobs() async throws {
        let computed = Atomic<Int>(0)
        let backend = ScriptedBackend()
        let queue = JobQueue(backend: backend)
        let keeper = PendingSnapshotKeeper(queue: queue, aptConfig: nil) {
            computed.add(1, ordering: .sequentiallyConsistent)
            return PendingSnapshot(computedAt: Date())
        }
        keeper.start()
        defer { keeper.stop() }
        #expect(await eventually(timeout: .seconds(60)) { computed.load(ordering: .sequentiallyConsistent) == 1 && !keeper.current().computing })
        _ = try queue.submit(name: "script", updates: [Update(id: "u", installCommand: .argv(["/bin/true"]))])
        await queue.waitUntilIdle()
        queue.waitUntilDelivered()
        #expect(!keeper.current().computing && computed.load(ordering: .sequentiallyConsistent) == 1, "nothing after a job of commands")
        keeper.recompute()
        #expect(await eventually(timeout: .seconds(60)) { computed.load(ordering: .sequentiallyConsistent) == 2 && !keeper.current().computing })
    }

    private func pendingCount(_ state: PendingState) throws -> Int? {
        guard let members = state.snapshot?.objectValue else { return nil }
        return try PendingSnapshotCoding.decode(WireObject(members, context: "snapshot")).packages.count
    }
}
