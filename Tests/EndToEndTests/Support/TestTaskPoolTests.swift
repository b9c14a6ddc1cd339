import Foundation
import Glibc
import Synchronization
import Testing

/// The test process's tasks run on a pool wider than Swift's one thread per core
/// (Tests/TestMachineSetup/TestTaskPool.c): tests that block their thread no longer stall
/// every test that awaits.
///
/// The pool is bounded (two workers a core), so inside a full run the other suites' blocking
/// tests may hold every worker beyond this test's own for minutes: in CI they did for over
/// 120 s, and the probe gave up though the pool had worked as designed. So the probe runs in a
/// test process of its own (this same binary, filtered to it), where nothing else blocks.
@Suite("the tests' task pool")
struct TestTaskPoolTests {
    /// Set in the probe's own process: there the probe runs, and the test that starts it does not.
    private static let probeVariable = "INSTALLTOP_TASK_POOL_PROBE"
    private static var isProbeProcess: Bool { ProcessInfo.processInfo.environment[probeVariable] == "1" }

    @Test("an awaiting task goes on while as many tasks as this machine has cores block their threads (in a test process with nothing else running)",
          .enabled(if: !TestTaskPoolTests.isProbeProcess))
    func awaitingTaskRunsWhileOthersBlock() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let probe = try await InstalltopProcess(
            ["--testing-library", "swift-testing", "--filter", "TestTaskPoolTests"], in: folder,
            executable: testBinary, environment: [Self.probeVariable: "1"]
        ).finish(timeout: .seconds(600))
        // Swift Testing reports on standard error.
        let report = probe.stdout + probe.stderr
        #expect(probe.status == 0, "the probe's process: \(report)")
        #expect(report.contains("Test \"probe: no blocked task gave up\" passed"), "the probe did not run, or failed: \(report)")
    }

    @Test("Swift Testing runs a bounded number of test cases at once: the pool set its width (unless given) before the run began",
          .enabled(if: !TestTaskPoolTests.isProbeProcess))
    func parallelTestsAreBounded() throws {
        let width = try #require(ProcessInfo.processInfo.environment["SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"].flatMap { Int($0) },
                                 "unbounded, every test starts at once and a wake-up waits behind thousands of jobs")
        #expect(width > 0, "width \(width)")
    }

    @Test("probe: no blocked task gave up", .enabled(if: TestTaskPoolTests.isProbeProcess))
    func probe() async {
        // As many as Swift's own pool has threads: under it the awaiting task could not run.
        let blockers = ProcessInfo.processInfo.activeProcessorCount
        final class Flags: Sendable {
            let released = Atomic(false)
            let gaveUp = Atomic(0)
        }
        let flags = Flags()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<blockers {
                // Blocks until the awaiting task has run, or 120 s: with Swift's own pool (one
                // thread per core) the awaiting task could not run before they all gave up.
                group.addTask {
                    let deadline = ContinuousClock.now + .seconds(120)
                    while !flags.released.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(1_000) }
                    if !flags.released.load(ordering: .acquiring) { flags.gaveUp.add(1, ordering: .relaxed) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(10))
                flags.released.store(true, ordering: .releasing)
            }
        }
        #expect(flags.gaveUp.load(ordering: .relaxed) == 0, "blocked tasks waited 120 s for one that awaits")
    }
}
