import Glibc
@testable import InstallEngine
import Synchronization
import Testing
import TestProcessSupport

/// The poller keeps every child apart while children start and end around it all the time:
/// their descriptors are closed and their numbers taken by the next children at once.
@Suite("ProcessBackend: children started, killed and ended side by side")
struct ProcessBackendChurnTests {
    @Test("every child's outcome comes while four threads start, kill, terminate and let end children at once")
    func everyOutcomeComesWhileChildrenComeAndGo() async {
        let backend = ProcessBackend()
        let threads = 4, perThread = 60
        let outcomes = LockedValue<[Int: UpdateRunOutcome]>([:])
        let expected = LockedValue<[Int: UpdateRunOutcome]>([:])
        for thread in 0..<threads {
            EngineThread.detach(named: "test-churn") {
                for index in 0..<perThread {
                    let key = thread * perThread + index
                    let running: ChildProcess
                    switch index % 4 {
                    case 0:
                        // Killed as soon as it runs.
                        running = backend.startChild(ChildSpec(command: .shell("exec sleep 300")), sinks: .update(reporting: CountingReporter()))
                        running.kill()
                        expected.update { $0[key] = .signaled(SIGKILL) }
                    case 1:
                        // Paced, and killed once its first line was read (or after a minute).
                        let ready = LockedValue(false)
                        running = backend.startChild(ChildSpec(command: .shell("echo ready; exec sleep 300")), sinks: ChildSinks(
                            stdout: .text { _ in ready.set(true) }, stderr: .text { _ in }, channel: .text { _ in },
                            afterReads: {}, atMostEvery: .milliseconds(20)))
                        let deadline = ContinuousClock.now + .seconds(60)
                        while !ready.value, ContinuousClock.now < deadline { usleep(1_000) }
                        running.kill()
                        expected.update { $0[key] = .signaled(SIGKILL) }
                    case 2:
                        // Writes on all three pipes and ends by itself.
                        let script = "echo out; echo err >&2; echo progress 50 >&3; exit \(key % 100)"
                        running = backend.startChild(ChildSpec(command: .shell(script)), sinks: .update(reporting: CountingReporter()))
                        expected.update { $0[key] = .exited(Int32(key % 100)) }
                    default:
                        // Terminated as soon as it runs.
                        running = backend.startChild(ChildSpec(command: .shell("exec sleep 300")), sinks: .update(reporting: CountingReporter()))
                        running.terminate()
                        expected.update { $0[key] = .signaled(SIGTERM) }
                    }
                    running.whenEnded { outcome in outcomes.update { $0[key] = outcome } }
                }
            }
        }
        let total = threads * perThread
        let allCame = await eventually(timeout: .seconds(180)) { outcomes.value.count == total }
        let missing = (0..<total).filter { outcomes.value[$0] == nil }
        #expect(allCame, "no outcome for children \(missing)")
        let wrong = outcomes.value.filter { expected.value[$0.key] != $0.value }
        #expect(wrong.isEmpty, "outcomes not as expected: \(wrong.sorted { $0.key < $1.key })")
    }
}
