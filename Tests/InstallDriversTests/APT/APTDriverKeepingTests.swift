import APTTestSupport
import Foundation
import InstallDrivers
import InstallEngine
import Synchronization
import Testing
import TestProcessSupport

/// The apt driver with a keeper of replaced versions (rule 33), its plan from a simulation (the
/// monitor's confirmed plan): the keeper runs once, from apt's hook, before dpkg touches any
/// package; a package it could not keep is said on that package's update and the upgrade goes
/// on; a stop while it keeps stops apt before dpkg (the hook answers `stop`). The host's
/// packages are never touched.
@Suite("apt: keeping replaced versions before dpkg", .serialized)
struct APTDriverKeepingTests {
    /// A keeper that records what dpkg had installed when it was asked, keeps nothing of
    /// `refused`, and waits for `release` when told to.
    final class WatchingKeeper: APTVersionKeeping {
        let administrativeDirectory: String
        let refused: String
        let holds: Bool
        let release = DispatchSemaphore(value: 0)
        private let seen = Mutex<(calls: Int, changes: [PackageChange], states: [String: APTPackageState])>((0, [], [:]))

        init(administrativeDirectory: String, refusing refused: String, holds: Bool = false) {
            self.administrativeDirectory = administrativeDirectory
            self.refused = refused
            self.holds = holds
        }

        private let ahead = Mutex<(planned: [[PackageChange]], discards: Int)>(([], 0))

        var calls: Int { seen.withLock { $0.calls } }
        /// The plans `keepAhead` was given, and how often `discardAhead` was called.
        var plannedAhead: [[PackageChange]] { ahead.withLock { $0.planned } }
        var discards: Int { ahead.withLock { $0.discards } }

        func keepAhead(_ planned: [PackageChange], environment: APTEnvironment) {
            ahead.withLock { $0.planned.append(planned) }
        }

        func discardAhead() {
            ahead.withLock { $0.discards += 1 }
        }
        var changes: [PackageChange] { seen.withLock { $0.changes } }
        var statesWhenAsked: [String: APTPackageState] { seen.withLock { $0.states } }

        func keep(_ changes: [PackageChange], environment: APTEnvironment) -> [APTKeptVersion] {
            let states = APTPackageState.query(administrativeDirectory: administrativeDirectory)
            seen.withLock { $0 = ($0.calls + 1, changes, states) }
            if holds { release.wait() }
            return changes.map { change in
                APTKeptVersion(package: change.package, version: change.oldVersion ?? "", architecture: "all",
                               outcome: change.package == refused ? .notKept(reason: "the test keeps no \(refused)")
                                   : .kept(file: "/kept/\(change.package)", size: 1, source: .rebuilt))
            }
        }
    }

    private static func upgradedRoot() throws -> APTTestRoot {
        let apt = try APTTestRoot()
        try apt.publish([TestPackage(name: "lab-base"), TestPackage(name: "lab-app", depends: "lab-base (= 1.0)"), TestPackage(name: "lab-tool")])
        try apt.aptGet(["-y", "install", "lab-app", "lab-tool"], check: true)
        try apt.publish([TestPackage(name: "lab-base", version: "2.0"), TestPackage(name: "lab-app", version: "2.0", depends: "lab-base (= 2.0)"),
                         TestPackage(name: "lab-tool", version: "2.0")])
        return apt
    }

    /// Submits `plan` with `keeper` on a queue of its own; `events` hears everything from the start.
    private static func submit(_ plan: APTPlan, keeper: WatchingKeeper, events: RecordedEvents = RecordedEvents()) throws -> (JobQueue, Int) {
        let queue = JobQueue(backend: ProcessBackend())
        queue.subscribe { events.add($0) }
        let id = try queue.submit(name: "apt upgrade", operation: plan.job.request.operation, updates: plan.updates,
                                  driver: APTDriver(plan: plan, keeper: keeper)).id
        return (queue, id)
    }

    @Test("The keeper is asked once, before dpkg touched anything; a package not kept says so on its update and is upgraded all the same")
    func keepsBeforeDpkg() async throws {
        let host = HostPackageFingerprint()
        let apt = try Self.upgradedRoot()
        defer { apt.remove() }
        let plan = try APTPlanner.plan(PackageJob(request: .upgrade, aptConfig: apt.configuration))
        let keeper = WatchingKeeper(administrativeDirectory: apt.root + "/var/lib/dpkg", refusing: "lab-tool")
        let events = RecordedEvents()
        let (queue, id) = try Self.submit(plan, keeper: keeper, events: events)

        #expect(await eventually(timeout: .seconds(180)) { queue.snapshot().job(id)?.phase == .completed })
        await queue.waitUntilIdle()
        let state = try #require(queue.snapshot().job(id))
        #expect(state.result?.resultCode == .succeeded, "\(state.updates.map { $0.result.reason ?? "" })")
        #expect(keeper.calls == 1)
        #expect(keeper.changes == plan.changes)
        #expect(keeper.plannedAhead == [plan.changes], "the simulated plan is kept ahead, as apt starts")
        #expect(keeper.discards == 0)
        #expect(keeper.statesWhenAsked.mapValues(\.version) == ["lab-base": "1.0", "lab-app": "1.0", "lab-tool": "1.0"])
        #expect(keeper.statesWhenAsked.values.allSatisfy { $0.status == "ii" }, "dpkg had touched nothing: \(keeper.statesWhenAsked)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0", "lab-tool": "2.0"])
        let tool = try #require(plan.updates.firstIndex { $0.id == "lab-tool" })
        let note = "installtop: lab-tool 1.0 not kept for undo: the test keeps no lab-tool; this run cannot be undone"
        let output = events.all.compactMap { event -> String? in
            if case .output(let line) = event.kind, line.index == tool { return line.line }
            return nil
        }
        #expect(output.contains(note), "\(output)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("apt ending before its hook (nothing to upgrade after all) discards what was kept ahead; the keeper is never asked")
    func endedBeforeHookDiscards() async throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base")])
        try apt.aptGet(["-y", "install", "lab-base"], check: true)
        let job = PackageJob(request: .upgrade, aptConfig: apt.configuration)
        let keeper = WatchingKeeper(administrativeDirectory: apt.root + "/var/lib/dpkg", refusing: "")
        // A plan made before the archive changed its mind: apt itself finds nothing to do.
        let planned = [PackageChange(package: "lab-base", action: .upgrade, oldVersion: "1.0", newVersion: "2.0", architecture: "all")]
        let transaction = APTHookTransaction.start(job, environment: try APTPlanner.environment(of: job), keeper: keeper, planned: planned)
        guard case .ended(let outcome, _, _) = transaction.waitForBeginning() else {
            Issue.record("apt had nothing to do, yet its hook gave a plan")
            return
        }
        #expect(outcome == .exited(0))
        #expect(keeper.plannedAhead == [planned])
        #expect(await eventually(timeout: .seconds(60)) { keeper.discards == 1 })
        #expect(keeper.calls == 0)
    }

    @Test("A stop while the versions are being kept stops apt before dpkg: every package as it was, the audit clean")
    func stopWhileKeeping() async throws {
        let host = HostPackageFingerprint()
        let apt = try Self.upgradedRoot()
        defer { apt.remove() }
        let job = PackageJob(request: .upgrade, aptConfig: apt.configuration)
        // Planned before apt runs: the stopped apt-get holds the root's lock until it has
        // exited, and the planner refuses a locked root ("another apt or dpkg is running"), as
        // it must (a CI run planned here after the stop and was refused).
        let plan = try APTPlanner.plan(job)
        let keeper = WatchingKeeper(administrativeDirectory: apt.root + "/var/lib/dpkg", refusing: "", holds: true)
        // The transaction itself, so the stop is made before the keeper returns (through the
        // queue an abort is only enqueued, rule 10, and could reach apt after the answer).
        let transaction = APTHookTransaction.start(job, environment: try APTPlanner.environment(of: job), keeper: keeper)
        #expect(await eventually(timeout: .seconds(180)) { keeper.calls == 1 })
        transaction.stop()
        keeper.release.signal()
        let queue = JobQueue(backend: ProcessBackend())
        let id = try queue.submit(name: "apt upgrade", operation: .install, updates: plan.updates,
                                  driver: APTDriver(plan: plan, running: transaction)).id
        #expect(await eventually(timeout: .seconds(180)) { queue.snapshot().job(id)?.phase == .completed })
        await queue.waitUntilIdle()
        let state = try #require(queue.snapshot().job(id))
        #expect(state.result?.resultCode != .succeeded)
        #expect(state.updates.allSatisfy { $0.result.resultCode != .succeeded }, "no package changed")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "1.0", "lab-app": "1.0", "lab-tool": "1.0"])
        #expect(try apt.states().values.allSatisfy { $0.status == "ii" })
        #expect(try apt.audit().isEmpty)
        #expect(keeper.plannedAhead.isEmpty, "apt resolved alone: no plan to keep ahead")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
