import APTTestSupport
import Dispatch
import EngineWire
import Foundation
import InstallEngine
import InstallEngineTesting
import Synchronization
import Testing
import TestProcessSupport

@testable import InstallDrivers

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
        let keeper = PendingSnapshotKeeper(queue: queue, aptConfig: nil, compute: {
            let number = computed.add(1, ordering: .sequentiallyConsistent).newValue
            return PendingSnapshot(computedAt: Date(), packages: (0..<number).map {
                PendingPackage(name: "p\($0)", oldVersion: "1", newVersion: "2", origin: "localhost")
            })
        })
        keeper.start()
        defer { keeper.stop() }
        #expect(try await eventually { try pendingCount(keeper.current()) == 1 && !keeper.current().computing })

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
        #expect(try await eventually { try pendingCount(keeper.current()) == 2 && !keeper.current().computing },
                "one snapshot after the job, for the request made during it and the job's end together")
        #expect(computed.load(ordering: .sequentiallyConsistent) == 2)
    }

    @Test("When a package job ends, what it installed leaves the last snapshot at once, marked computing, until the new reading replaces it; a package it failed stays")
    func jobOutcomeAppliedAtOnce() async throws {
        let reading = Mutex<[String]>(["lab-app", "lab-tool", "lab-fail"])
        let release = DispatchSemaphore(value: 0)
        let computed = Atomic<Int>(0)
        let queue = JobQueue(backend: ScriptedBackend())
        let keeper = PendingSnapshotKeeper(queue: queue, aptConfig: nil, compute: {
            // The first reading at once; the one after the job only once the test lets it go.
            if computed.add(1, ordering: .sequentiallyConsistent).newValue > 1 { release.wait() }
            return PendingSnapshot(computedAt: Date(), packages: reading.withLock { $0 }.map {
                PendingPackage(name: $0, oldVersion: "1", newVersion: "2", origin: "localhost")
            })
        })
        keeper.start()
        defer { keeper.stop() }
        #expect(try await eventually { try pendingNames(keeper.current()) == ["lab-app", "lab-tool", "lab-fail"] })
        let driver = ScriptedDriver()
        _ = try queue.submit(name: "apt upgrade", updates: ["lab-app", "lab-tool", "lab-fail"].map { Update(id: $0) }, driver: driver)
        await driver.waitUntilStarted()
        for index in 0..<3 {
            driver.say(.updateStarted(index: index))
            driver.say(.updateFinished(index: index, index == 2 ? .failed("postinst failed") : .succeeded))
        }
        reading.withLock { $0 = ["lab-fail"] }
        driver.end(.exited(0))
        #expect(try await eventually { try pendingNames(keeper.current()) == ["lab-fail"] },
                "the job's outcome, before apt is read again")
        #expect(keeper.current().computing, "said to be recomputed meanwhile")
        release.signal()
        #expect(await eventually { !keeper.current().computing && computed.load(ordering: .sequentiallyConsistent) == 2 })
        #expect(try pendingNames(keeper.current()) == ["lab-fail"])
    }

    @Test("A snapshot only asked for (nothing known to have changed) is computed and answered, but never pushed as coming: a client that asks often makes no row flicker")
    func askedForIsNotComing() async throws {
        let queue = JobQueue(backend: ScriptedBackend())
        let computed = ComputationCount()
        let keeper = computed.keeper(of: queue)
        let pushed = Mutex<[Bool]>([])
        keeper.observe { state in pushed.withLock { $0.append(state.computing) } }
        keeper.start()
        defer { keeper.stop() }
        #expect(await eventually { computed.count == 1 && !keeper.current().computing })
        let before = pushed.withLock { $0.count }
        for _ in 0..<5 {
            keeper.recompute()
            let answered = Mutex<PendingState?>(nil)
            keeper.whenSettled { state in answered.withLock { $0 = state } }
            #expect(await eventually { answered.withLock { $0 } != nil }, "a wait is answered once it is computed")
        }
        #expect(computed.count >= 2)
        #expect(!pushed.withLock { Array($0.dropFirst(before)) }.contains(true), "\(pushed.withLock { $0 })")
    }

    @Test("Requests that come while a reading is under way, nothing changed since it began, are answered by it: waiters are not held for as long as requests come")
    func requestsDuringAReadingAreAnsweredByIt() async throws {
        let computed = Atomic<Int>(0)
        let release = DispatchSemaphore(value: 0)
        let queue = JobQueue(backend: ScriptedBackend())
        let keeper = PendingSnapshotKeeper(queue: queue, aptConfig: nil, compute: {
            if computed.add(1, ordering: .sequentiallyConsistent).newValue > 1 { release.wait() }
            return PendingSnapshot(computedAt: Date())
        })
        keeper.start()
        defer { keeper.stop() }
        #expect(await eventually { computed.load(ordering: .sequentiallyConsistent) == 1 && !keeper.current().computing })
        let answered = Atomic<Int>(0)
        keeper.recompute()
        #expect(await eventually { computed.load(ordering: .sequentiallyConsistent) == 2 }, "the second reading began")
        for _ in 0..<5 {
            keeper.recompute()
            keeper.whenSettled { _ in answered.add(1, ordering: .sequentiallyConsistent) }
        }
        release.signal()
        #expect(await eventually { answered.load(ordering: .sequentiallyConsistent) == 5 }, "every waiter answered by the reading under way")
        #expect(computed.load(ordering: .sequentiallyConsistent) == 2, "no further reading for requests it answered")
    }

    @Test("A downgrade that succeeds takes nothing out of the pending list (it makes a package pending, not up to date)")
    func downgradeIsNotAssumedInstalled() async throws {
        let release = DispatchSemaphore(value: 0)
        let computed = Atomic<Int>(0)
        let queue = JobQueue(backend: ScriptedBackend())
        let keeper = PendingSnapshotKeeper(queue: queue, aptConfig: nil, compute: {
            if computed.add(1, ordering: .sequentiallyConsistent).newValue > 1 { release.wait() }
            return PendingSnapshot(computedAt: Date(), packages: [PendingPackage(name: "tzdata", oldVersion: "2026b", newVersion: "2026f", origin: "localhost")])
        })
        keeper.start()
        defer {
            release.signal()
            keeper.stop()
        }
        #expect(try await eventually { try pendingNames(keeper.current()) == ["tzdata"] })
        let driver = ScriptedDriver()
        let downgrade = PackageChange(package: "tzdata", action: .upgrade, oldVersion: "2026f", newVersion: "2026b")
        _ = try queue.submit(name: "apt-get install tzdata=2026b", updates: [Update(id: "tzdata", package: downgrade)], driver: driver)
        await driver.waitUntilStarted()
        driver.say(.updateStarted(index: 0))
        driver.say(.updateFinished(index: 0, .succeeded))
        driver.end(.exited(0))
        #expect(await eventually { keeper.current().computing })
        #expect(try pendingNames(keeper.current()) == ["tzdata"], "still pending until apt is read again")
    }

    @Test("A transaction being watched (an observed job) holds a computation back until it ends, then one follows")
    func observedTransactionHoldsBack() async throws {
        let queue = JobQueue(backend: ScriptedBackend())
        let computed = ComputationCount()
        let keeper = computed.keeper(of: queue)
        keeper.start()
        defer { keeper.stop() }
        #expect(await eventually { computed.count == 1 && !keeper.current().computing })
        let driver = ScriptedDriver()
        let initiator = ObservedInitiator(pid: 812, startTicks: 4242, program: "apt-get", commandLine: ["apt-get", "upgrade"],
                                          uid: 0, user: "root", terminal: "pts/1")
        _ = try queue.submit(name: "apt-get upgrade", updates: [Update(id: "lab-app")], driver: driver, observedBy: initiator)
        await driver.waitUntilStarted()
        queue.waitUntilDelivered()
        keeper.recompute()
        #expect(keeper.current().computing, "a snapshot is owed after the transaction")
        #expect(computed.count == 1, "none read half-way through it")
        driver.say(.updateStarted(index: 0))
        driver.say(.updateFinished(index: 0, .succeeded))
        driver.end(.exited(0))
        #expect(await eventually { computed.count == 2 && !keeper.current().computing })
    }

    @Test("A job of commands neither holds a computation back nor asks for one; a request after it computes one")
    func otherJobs() async throws {
        let computed = Atomic<Int>(0)
        let backend = ScriptedBackend()
        let queue = JobQueue(backend: backend)
        let keeper = PendingSnapshotKeeper(queue: queue, aptConfig: nil, compute: {
            computed.add(1, ordering: .sequentiallyConsistent)
            return PendingSnapshot(computedAt: Date())
        })
        keeper.start()
        defer { keeper.stop() }
        #expect(await eventually { computed.load(ordering: .sequentiallyConsistent) == 1 && !keeper.current().computing })
        _ = try queue.submit(name: "script", updates: [Update(id: "u", installCommand: .argv(["/bin/true"]))])
        await queue.waitUntilIdle()
        queue.waitUntilDelivered()
        #expect(!keeper.current().computing && computed.load(ordering: .sequentiallyConsistent) == 1, "nothing after a job of commands")
        keeper.recompute()
        #expect(await eventually { computed.load(ordering: .sequentiallyConsistent) == 2 && !keeper.current().computing })
    }

    @Test("A change of the root made outside the engine (dpkg's status rewritten several times, a list written) is one snapshot, pushed to observers in order; the same when polled (no inotify)",
          arguments: [false, true])
    func outsideChanges(polling: Bool) async throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let admin = root + "/dpkg", lists = root + "/lists"
        for folder in [admin, lists] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let computed = Atomic<Int>(0)
        let queue = JobQueue(backend: ScriptedBackend())
        let keeper = PendingSnapshotKeeper(queue: queue, aptConfig: nil,
                                           watching: PackageStateWatcher.Places(administrativeDirectory: admin, lists: lists), polling: polling, compute: {
            computed.add(1, ordering: .sequentiallyConsistent)
            return PendingSnapshot(computedAt: Date())
        })
        let heard = Mutex<[PendingState]>([])
        keeper.observe { state in heard.withLock { $0.append(state) } }
        keeper.start()
        defer { keeper.stop() }
        #expect(await eventually { computed.load(ordering: .sequentiallyConsistent) == 1 && !keeper.current().computing })

        // dpkg's way: under its lock, the new status written beside, then renamed over the old,
        // several times. The lock makes them one change however the test is scheduled: without
        // it, a test thread held up between two rounds for longer than the watcher's quiet
        // spell (under load) saw two snapshots, and then waited for a count already passed.
        let holder = try DpkgLockHolder(path: admin + "/lock-frontend")
        for round in 0..<3 {
            try "Package: p\(round)\n".write(toFile: admin + "/status-new", atomically: false, encoding: .utf8)
            #expect(rename(admin + "/status-new", admin + "/status") == 0)
        }
        holder.release()
        #expect(await eventually { computed.load(ordering: .sequentiallyConsistent) == 2 && !keeper.current().computing })
        try "list".write(toFile: lists + "/deb.example_dists_stable_InRelease", atomically: true, encoding: .utf8)
        #expect(await eventually { computed.load(ordering: .sequentiallyConsistent) == 3 && !keeper.current().computing })

        let states = heard.withLock { $0 }
        #expect(states.first == PendingState(snapshot: nil, computing: false), "an observer hears the state at once")
        #expect(states.last.map { !$0.computing && $0.snapshot != nil } == true)
        // Each change is heard as coming, then as done: computing and not in turn, never twice the same.
        #expect(zip(states, states.dropFirst()).allSatisfy { $0 != $1 }, "\(states)")
        #expect(states.count(where: { $0.computing }) >= 3)
    }

    @Test("A change made while dpkg's lock is held is computed once the lock is let go, not before")
    func waitsForTheLock() async throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let admin = root + "/dpkg"
        try FileManager.default.createDirectory(atPath: admin, withIntermediateDirectories: true)
        let computed = Atomic<Int>(0)
        let keeper = PendingSnapshotKeeper(queue: JobQueue(backend: ScriptedBackend()), aptConfig: nil,
                                           watching: PackageStateWatcher.Places(administrativeDirectory: admin, lists: nil), compute: {
            computed.add(1, ordering: .sequentiallyConsistent)
            return PendingSnapshot(computedAt: Date())
        })
        keeper.start()
        defer { keeper.stop() }
        #expect(await eventually { computed.load(ordering: .sequentiallyConsistent) == 1 && !keeper.current().computing })
        let holder = try DpkgLockHolder(path: admin + "/lock-frontend")
        try "Package: p\n".write(toFile: admin + "/status", atomically: true, encoding: .utf8)
        #expect(await eventually { keeper.current().computing }, "a change under way says a newer snapshot is coming")
        try await Task.sleep(for: .milliseconds(900))
        #expect(computed.load(ordering: .sequentiallyConsistent) == 1 && keeper.current().computing, "nothing computed while the lock is held")
        holder.release()
        #expect(await eventually { computed.load(ordering: .sequentiallyConsistent) == 2 && !keeper.current().computing })
    }

    @Test("A package job declined before it ran holds nothing back: a change after it is computed")
    func declinedJob() async throws {
        let queue = JobQueue(backend: ScriptedBackend())
        let computed = ComputationCount()
        let keeper = computed.keeper(of: queue)
        keeper.start()
        defer { keeper.stop() }
        #expect(await eventually { computed.count == 1 && !keeper.current().computing })
        let held = try queue.submit(name: "apt upgrade", updates: [Update(id: "lab-app")], driver: ScriptedDriver(), awaitsConfirmation: true)
        queue.waitUntilDelivered()
        try queue.decline(job: held.id)
        await queue.waitUntilIdle()
        queue.waitUntilDelivered()
        keeper.recompute()
        let answered = Mutex<PendingState?>(nil)
        keeper.whenSettled { state in answered.withLock { $0 = state } }
        #expect(await eventually { answered.withLock { $0 } != nil && computed.count == 2 })
    }

    @Test("What counts as a change: dpkg's status, apt's lists; not a lock (looking at one opens it for writing), not a partial download")
    func whatCounts() {
        #expect(PackageStateWatcher.counts("status", inLists: false))
        for name in ["lock", "lock-frontend", "status-old", "status-new", "updates", "triggers"] {
            #expect(!PackageStateWatcher.counts(name, inLists: false), "\(name)")
        }
        #expect(PackageStateWatcher.counts("deb.debian.org_debian_dists_bookworm_InRelease", inLists: true))
        for name in ["lock", "partial", "auxfiles"] { #expect(!PackageStateWatcher.counts(name, inLists: true), "\(name)") }
    }

    /// A new empty folder of this test's.
    private static func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pending-watch-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func pendingNames(_ state: PendingState) throws -> [String]? {
        guard let members = state.snapshot?.objectValue else { return nil }
        return try PendingSnapshotCoding.decode(WireObject(members, context: "snapshot")).packages.map(\.name)
    }

    private func pendingCount(_ state: PendingState) throws -> Int? {
        guard let members = state.snapshot?.objectValue else { return nil }
        return try PendingSnapshotCoding.decode(WireObject(members, context: "snapshot")).packages.count
    }

    /// How many snapshots a keeper of the test's computed: each an empty snapshot, counted.
    private final class ComputationCount: Sendable {
        private let value = Atomic<Int>(0)
        var count: Int { value.load(ordering: .sequentiallyConsistent) }

        func keeper(of queue: JobQueue) -> PendingSnapshotKeeper {
            PendingSnapshotKeeper(queue: queue, aptConfig: nil, compute: { [self] in
                value.add(1, ordering: .sequentiallyConsistent)
                return PendingSnapshot(computedAt: Date())
            })
        }
    }
}
