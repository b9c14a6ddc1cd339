import APTTestSupport
import Foundation
import InstallDrivers
import InstallEngine
import Testing
import TestProcessSupport

/// `APTHookTransaction` in a private root: apt resolves once, its `Pre-Install-Pkgs` hook gives
/// the plan, the job's driver takes the running transaction over, and apt's end before the
/// hook says what the plan would have said. The host's packages are never touched.
@Suite("apt: the plan from apt's own hook", .serialized)
struct APTHookTransactionTests {
    /// Starts `job`'s transaction and waits, off the concurrency pool, for its beginning.
    private func begin(_ job: PackageJob) async throws -> (APTHookTransaction, APTHookTransaction.Beginning) {
        let transaction = APTHookTransaction.start(job, environment: try APTPlanner.environment(of: job))
        let beginning = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: transaction.waitForBeginning()) }
        }
        return (transaction, beginning)
    }

    /// Runs `plan` as a job whose driver takes `transaction` over, until it completes.
    private func run(_ plan: APTPlan, taking transaction: APTHookTransaction) async throws -> JobState {
        let queue = JobQueue(backend: ProcessBackend())
        let id = try queue.submit(name: "hook", operation: plan.job.request.operation, updates: plan.updates,
                                  driver: APTDriver(plan: plan, running: transaction)).id
        #expect(await eventually(timeout: .seconds(120)) { queue.snapshot().job(id)?.phase == .completed })
        await queue.waitUntilIdle()
        return try #require(queue.snapshot().job(id))
    }

    @Test("The hook's plan is the simulation's (apt's order, actions, versions, Essential marked); the driver takes apt over and every package succeeds")
    func planFromTheHook() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-base"), TestPackage(name: "lab-app", depends: "lab-base"), TestPackage(name: "lab-tool"),
            TestPackage(name: "lab-core", essential: true),
        ])
        try apt.aptGet(["-y", "install", "lab-tool", "lab-core"], check: true)
        try apt.publish([
            TestPackage(name: "lab-base"), TestPackage(name: "lab-app", depends: "lab-base"), TestPackage(name: "lab-tool", version: "2.0"),
            TestPackage(name: "lab-core", version: "2.0", essential: true),
        ])
        let job = PackageJob(request: .install(["lab-app", "lab-tool", "lab-core"]), aptConfig: apt.configuration)
        let simulated = try APTPlanner.plan(job)

        let (transaction, beginning) = try await begin(job)
        guard case .plan(let changes) = beginning else {
            Issue.record("apt ended before its hook: \(beginning)")
            return
        }
        #expect(changes == simulated.changes)
        #expect(changes.first { $0.package == "lab-core" }?.essential == true)
        let plan = APTPlan(job: job, environment: simulated.environment, changes: changes, downloads: [])
        let state = try await run(plan, taking: transaction)
        #expect(state.result?.resultCode == .succeeded, "\(state.updates.map { $0.result.reason ?? "" })")
        #expect(state.updates.allSatisfy { $0.result.resultCode == .succeeded && $0.percent == 100 })
        let states = try apt.states()
        #expect(states["lab-app"]?.status == "ii" && states["lab-tool"]?.version == "2.0" && states["lab-core"]?.version == "2.0")
        #expect(try apt.audit().isEmpty)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("The root's own Pre-Install-Pkgs hook still runs, before dpkg, beside installtop's")
    func rootHooksStillRun() async throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-tool")])
        let list = apt.root + "/tmp/own-hook"
        try FileManager.default.createDirectory(atPath: apt.root + "/tmp", withIntermediateDirectories: true)
        try "DPkg::Pre-Install-Pkgs:: \"cat > \(list)\";\n".write(toFile: apt.root + "/etc/apt/apt.conf.d/50lab-hook", atomically: true, encoding: .utf8)
        let job = PackageJob(request: .install(["lab-tool"]), aptConfig: apt.configuration)

        let (transaction, beginning) = try await begin(job)
        guard case .plan(let changes) = beginning else {
            Issue.record("apt ended before its hook: \(beginning)")
            return
        }
        #expect(changes.map(\.package) == ["lab-tool"])
        // Its own hook (protocol version 1) was given the archive's path, before installtop's.
        #expect(try String(contentsOfFile: list, encoding: .utf8).hasSuffix("lab-tool_1.0_all.deb\n"))
        let state = try await run(APTPlan(job: job, environment: transaction.environment, changes: changes, downloads: []), taking: transaction)
        #expect(state.result?.resultCode == .succeeded, "\(state.updates.map { $0.result.reason ?? "" })")
    }

    @Test("A stop while the root's own hook runs (apt ignores SIGINT then): the hook's answer stops apt before dpkg, nothing changed")
    func stopDuringRootHook() async throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-tool")])
        let (entered, released) = try apt.holdInPreInstallHook()
        let job = PackageJob(request: .install(["lab-tool"]), aptConfig: apt.configuration)
        let transaction = APTHookTransaction.start(job, environment: try APTPlanner.environment(of: job))
        async let beginning = withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: transaction.waitForBeginning()) }
        }
        #expect(await eventually(timeout: .seconds(60)) { FileManager.default.fileExists(atPath: entered) })
        transaction.stop()
        #expect(FileManager.default.createFile(atPath: released, contents: nil))

        guard case .ended(let outcome, _, let stderr) = await beginning else {
            Issue.record("the plan came although a stop was asked before it")
            return
        }
        #expect(outcome == .exited(100), "\(stderr)")
        #expect(transaction.stopRequested)
        #expect(try apt.states().isEmpty, "dpkg ran")
    }

    @Test("Nothing to do: apt ends before its hook with status 0, nothing changed")
    func nothingToDo() async throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-tool")])
        try apt.aptGet(["-y", "install", "lab-tool"], check: true)

        let (_, beginning) = try await begin(PackageJob(request: .install(["lab-tool"]), aptConfig: apt.configuration))
        guard case .ended(let outcome, _, _) = beginning else {
            Issue.record("the hook ran: \(beginning)")
            return
        }
        #expect(outcome == .exited(0))
    }

    @Test("Broken dependencies: apt ends before its hook; the refusal is the plan's, with apt's list of what is unmet")
    func brokenDependencies() async throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-needy", depends: "lab-missing")])
        let job = PackageJob(request: .install(["lab-needy"]), aptConfig: apt.configuration)

        let (_, beginning) = try await begin(job)
        guard case .ended(let outcome, let stdout, let stderr) = beginning else {
            Issue.record("the hook ran: \(beginning)")
            return
        }
        #expect(outcome == .exited(100))
        let refusal = APTPlanner.refusal(of: job, outcome: outcome, stdout: stdout, stderr: stderr)
        let planned = #expect(throws: APTPlanError.self) { try APTPlanner.plan(job) }
        #expect(refusal == planned)
        #expect(refusal.message.contains("The following packages have unmet dependencies") && refusal.message.contains("lab-missing"),
                "\(refusal.message)")
        #expect(try apt.states().isEmpty)
    }
}
