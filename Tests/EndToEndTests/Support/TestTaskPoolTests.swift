import Foundation
import Glibc
import Synchronization
import Testing

/// The test process's tasks run on a pool wider than Swift's one thread per core, which grows
/// further while every worker is blocked (Tests/TestMachineSetup/TestTaskPool.c): tests that
/// block their thread no longer stall every test that awaits.
@Suite("the tests' task pool")
struct TestTaskPoolTests {
    @Test("an awaiting task goes on while more tasks than the pool starts at once (two a core) block their threads")
    func awaitingTaskRunsWhileOthersBlock() async {
        // More than the pool's workers before its watch adds any (two a core, at least 4), and
        // more than Swift's own pool has threads (one a core): the awaiting task runs only on a
        // worker added because every other one is blocked, as when other tests block too.
        let blockers = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount) + 1
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
