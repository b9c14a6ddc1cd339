import APTTestSupport
import Foundation
import InstallDrivers
import InstallEngine
import Synchronization
import Testing

/// Real apt transactions in a private root, run by `APTDriver` through the engine's queue: one
/// update per package, results checked against dpkg, and nothing of the host's packages touched.
@Suite("apt: the driver", .serialized)
struct APTDriverTests {
    /// Every event of the queue, in order.
    final class Events: Sendable {
        private let events = Mutex<[EngineEvent]>([])
        func add(_ event: EngineEvent) { events.withLock { $0.append(event) } }
        var all: [EngineEvent] { events.withLock { $0 } }
    }

    private func run(_ job: PackageJob, in apt: APTTestRoot) async throws -> (JobState, Events) {
        let plan = try APTPlanner.plan(job)
        let queue = JobQueue(backend: ProcessBackend())
        let events = Events()
        queue.subscribe { events.add($0) }
        let descriptor = try queue.submit(name: job.request.summary, operation: job.request.operation, updates: plan.updates,
                                          driver: APTDriver(plan: plan))
        await queue.waitUntilIdle()
        return (try #require(queue.snapshot().job(descriptor.id)), events)
    }

    @Test("A clean install: one update per package in apt's order, each succeeded, the job at 100 %")
    func cleanInstall() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-base"),
            TestPackage(name: "lab-app", depends: "lab-base"),
            TestPackage(name: "lab-tool"),
        ])
        let (job, _) = try await run(PackageJob(request: .install(["lab-app", "lab-tool"]), aptConfig: apt.configuration), in: apt)
        #expect(job.descriptor.updates.map(\.id).sorted() == ["lab-app", "lab-base", "lab-tool"])
        #expect(job.result?.resultCode == .succeeded, "\(job.updates.map { $0.result.reason ?? "" })")
        #expect(job.percent == 100)
        let states = try apt.states()
        #expect(states["lab-app"]?.status == "ii")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
