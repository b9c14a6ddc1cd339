import Foundation
import Glibc
import Synchronization
import Testing

/// The test process's tasks run on a pool wider than Swift's one thread per core
/// (Tests/TestMachineSetup/TestTaskPool.c): tests that block their thread no longer stall
/// every test that awaits.
@Suite("the tests' task pool")
struct TestTaskPoolTests {
    @Test("an awaiting task goes on while as many tasks as this machine has cores block their threads")
    func awaitingTaskRunsWhileOthersBlock() async {
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
