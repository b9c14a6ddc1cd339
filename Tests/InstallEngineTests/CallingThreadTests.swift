import Dispatch
import Foundation
@testable import InstallEngine
import Synchronization
import TestProcessSupport
import Testing

/// The threads that tell a job runner it may run an input on them (`CallingThread`), and the
/// pool's `isAsleep`: the conditions under which an update's end and its next launch run on
/// the thread that delivers them rather than waking a pool thread.
@Suite("Threads: who says it has nothing else waiting, and when the pool is asleep")
struct CallingThreadTests {
    @Test("A queue resumes a waiter as a thread with nothing waiting once it has nothing left to deliver, and not before")
    func aQueueSaysSoOnlyWhenDrained() async {
        let queue = SerialWorkQueue(runningOn: .ownThread(name: "test-callingq"))
        let seen = LockedValue<[Bool]>([])
        // Registered while the item blocks, so the queue (not this thread) resumes it.
        let gate = DispatchSemaphore(value: 0)
        let drained = queue.enqueue { _ = gate.wait(timeout: .now() + 120) }
        queue.whenDelivered(drained) { seen.update { $0.append(CallingThread.hasNothingWaiting) } }
        gate.signal()
        #expect(await eventually { seen.value.count == 1 })
        // An item queued while the waiter's item runs is still to deliver when the waiter resumes.
        let busy = queue.enqueue { _ = gate.wait(timeout: .now() + 120); queue.enqueue {} }
        queue.whenDelivered(busy) { seen.update { $0.append(CallingThread.hasNothingWaiting) } }
        gate.signal()
        #expect(await eventually { seen.value.count == 2 })
        #expect(seen.value == [true, false])
        // Anywhere else it is false.
        #expect(!CallingThread.hasNothingWaiting)
    }

    @Test("The poller settles the only child it watches as a thread with nothing waiting; beside another child, not")
    func thePollerSaysSoOnlyForItsOnlyChild() async throws {
        let reactor = Reactor(name: "test-callingp")
        defer { reactor.stop() }
        let poller = ChildPoller(reactor: reactor)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calling-thread-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var children: [ChildProcess] = []
        defer { for child in children { child.kill() } }
        let seen = LockedValue<[String: Bool]>([:])
        /// A child that ends when the test creates `folder/name`, watched by the test's poller.
        func start(_ name: String) throws -> ChildProcess {
            let spec = ChildSpec(command: .shell("while [ ! -e \(folder)/\(name) ]; do sleep 0.01; done"))
            let spawned = try ChildSpawner.spawn(spec, openingPidfd: true).get()
            let handle = ChildProcess(processGroup: spawned.pid, controlWrite: spawned.controlWrite)
            children.append(handle)
            #expect(poller.watch(spawned, handle: handle, sinks: .update(reporting: RecordingReporter()),
                                 maxLineBytes: 1024, drainTimeout: .milliseconds(200)) == nil)
            handle.whenEnded { _ in seen.update { $0[name] = CallingThread.hasNothingWaiting } }
            return handle
        }
        _ = try start("long")
        _ = try start("short")
        #expect(FileManager.default.createFile(atPath: "\(folder)/short", contents: nil))
        #expect(await eventually { seen.value["short"] != nil })
        #expect(FileManager.default.createFile(atPath: "\(folder)/long", contents: nil))
        #expect(await eventually { seen.value["long"] != nil })
        #expect(seen.value == ["short": false, "long": true])
    }

    @Test("A pool is asleep when every thread waits and nothing is queued; a submit wakes it")
    func aPoolIsAsleepOnlyWhenIdle() async {
        let workers = WorkerThreads(name: "test-asleep", limit: 2, idleLifetime: .milliseconds(50))
        #expect(workers.isAsleep)
        let gate = DispatchSemaphore(value: 0)
        let ran = Atomic<Bool>(false)
        workers.submit {
            _ = gate.wait(timeout: .now() + 120)
            ran.store(true, ordering: .releasing)
        }
        #expect(!workers.isAsleep)
        gate.signal()
        #expect(await eventually { ran.load(ordering: .acquiring) && workers.isAsleep })
    }
}
