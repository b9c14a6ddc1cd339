import APTTestSupport
import Dispatch
import Foundation
import InstallDrivers
import InstallEngine
import Synchronization
import Testing
import TestProcessSupport

/// A stop of a real apt transaction while a subscriber blocks (a history write waiting for a
/// lock): the poller, which reads every child of the process, must keep reading. When the stop
/// delivered its events on the caller's thread under the driver's report lock, apt's next line
/// blocked the poller on that lock, and with it every other child's pipes.
@Suite("apt: a stop never holds up the poller", .serialized)
struct APTDriverStopDeliveryTests {
    /// Counts another child's stdout lines, straight from the poller.
    private final class LineCounter: UpdateReporter {
        private let lines = Mutex(0)

        func report(_ report: UpdateReport) {
            if case .output(.stdout, _) = report { lines.withLock { $0 += 1 } }
        }

        var count: Int { lines.withLock { $0 } }
    }

    @Test("The poller keeps reading other children while a subscriber blocks during an apt stop")
    func pollerReadsWhileSubscriberBlocks() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        // lab-a's preinst talks while it waits, so apt has lines for the poller during the stop.
        try apt.publish([
            TestPackage(name: "lab-a", preinst: """
                mkdir -p "$DPKG_ROOT/tmp"
                touch "$DPKG_ROOT/tmp/started-a"
                i=0
                while [ ! -e "$DPKG_ROOT/tmp/release-a" ] && [ $i -lt 6000 ]; do echo "lab-a waits $i"; sleep 0.1; i=$((i+1)); done
                """),
            TestPackage(name: "lab-b", depends: "lab-a"),
        ])
        let plan = try APTPlanner.plan(PackageJob(request: .install(["lab-a", "lab-b"]), aptConfig: apt.configuration))
        let queue = JobQueue(backend: ProcessBackend())
        let blocked = Mutex(false)
        let release = DispatchSemaphore(value: 0)
        // Blocks on the stop's own message, the event the stop request makes.
        queue.subscribe { event in
            guard case .progress(let report) = event.kind, report.message?.hasPrefix("stopping") == true,
                  !blocked.withLock({ $0 }) else { return }
            blocked.withLock { $0 = true }
            release.wait()
        }
        let id = try queue.submit(name: "apt", operation: plan.job.request.operation, updates: plan.updates,
                                  driver: APTDriver(plan: plan)).id
        // Planning, fetching and unpacking beside other apt tests on a loaded machine: a generous wait.
        try #require(await eventually(timeout: .seconds(180)) { FileManager.default.fileExists(atPath: apt.root + "/tmp/started-a") },
                     "lab-a's preinst never ran")

        // The stop comes from a thread of its own, as from the monitor's key handling.
        Thread.detachNewThread { try? queue.abort(job: id) }
        let subscriberBlocked = await eventually { blocked.withLock { $0 } }
        // Another child, on the same poller: 20,000 lines are more than its pipe holds, so they
        // all arrive only if the poller keeps reading.
        let counter = LineCounter()
        let other = ProcessBackend().start(
            UpdateRunRequest(update: Update(id: "other"), operation: .install, command: .shell("yes line | head -n 20000"), jobName: "other"),
            reporter: counter)
        let allRead = await eventually(timeout: .seconds(30)) { counter.count == 20_000 }
        release.signal()
        try Data().write(to: URL(fileURLWithPath: apt.root + "/tmp/release-a"))
        _ = await other.outcome
        let completed = await eventually(timeout: .seconds(120)) { queue.snapshot().job(id)?.phase == .completed }
        if !completed { try? queue.abort(job: id, force: true) }
        await queue.waitUntilIdle()

        #expect(subscriberBlocked, "the subscriber never saw the stop's message")
        #expect(allRead, "the poller stopped reading: \(counter.count) of 20000 lines")
        #expect(completed)
        let job = try #require(queue.snapshot().job(id))
        #expect(job.result?.resultCode == .aborted)
        #expect(job.updates[try #require(plan.updates.firstIndex { $0.id == "lab-a" })].result.resultCode == .succeeded)
        #expect(try apt.audit().isEmpty)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }
}
