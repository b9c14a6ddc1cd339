import InstallEngine
import Testing

/// The queue's rules on values: order, concurrency, abort of a queued job (rule 13).
@Suite("Queue state machine")
struct QueueMachineTests {
    private func submit(_ machine: inout QueueMachine, _ name: String) -> JobDescriptor {
        machine.submit(name: name, operation: .install, updates: [update("\(name)-1"), update("\(name)-2")], stopOnFailure: false).0
    }

    private func begun(_ actions: [QueueAction]) -> [Int] {
        actions.compactMap { if case .begin(let job, _) = $0 { job.id } else { nil } }
    }

    @Test("Jobs are numbered in submission order and start in that order, as many at once as there are slots")
    func orderAndConcurrency() {
        var machine = QueueMachine(slots: 2)
        let first = submit(&machine, "a")
        let second = submit(&machine, "b")
        let third = submit(&machine, "c")
        #expect([first.id, second.id, third.id] == [1, 2, 3])
        let actions = machine.startQueued()
        #expect(actions == [.begin(first, slot: 0), .begin(second, slot: 1)])
        #expect(machine.startQueued().isEmpty, "no slot is free")
        machine.completionDelivered(first.id)
        #expect(machine.slotFreed(0) == [.begin(third, slot: 0)])
        #expect(machine.phase(of: first.id) == .completed)
        #expect(!machine.isIdle)
    }

    @Test("Rule 13: a queued job that is aborted completes at once, every update aborted, and never starts")
    func abortQueued() throws {
        var machine = QueueMachine(slots: 1)
        let running = submit(&machine, "a")
        let queued = submit(&machine, "b")
        _ = machine.startQueued()
        let actions = try machine.abort(queued.id, force: false)
        #expect(actions.first == .publish(.jobAbortRequested(job: queued.id, force: false)))
        guard case .publish(.jobCompleted(let completion))? = actions.last else {
            Issue.record("the abort of a queued job ends with its completion: \(actions)")
            return
        }
        #expect(completion.result.resultCode == .aborted)
        #expect(completion.result.updateResults.allSatisfy { $0.hResult == .callCancelled })
        #expect(try machine.abort(running.id, force: true) == [.abortRunning(job: running.id, force: true)])
        machine.completionDelivered(queued.id)
        machine.completionDelivered(running.id)
        #expect(begun(machine.slotFreed(0)).isEmpty, "the aborted job never starts")
        for (id, expected) in [(queued.id, JobCommandError.alreadyCompleted(queued.id)), (9, .unknownJob(9))] {
            do {
                _ = try machine.abort(id, force: false)
                Issue.record("abort of job \(id) should throw \(expected)")
            } catch {
                #expect(error == expected)
            }
        }
    }

    @Test("Abort all aborts the queued jobs first, so none of them starts, then the running ones")
    func abortAll() {
        var machine = QueueMachine(slots: 1)
        let running = submit(&machine, "a")
        let queued = submit(&machine, "b")
        _ = machine.startQueued()
        let actions = machine.abortAll(force: false)
        #expect(actions.first == .publish(.jobAbortRequested(job: queued.id, force: false)))
        #expect(actions.last == .abortRunning(job: running.id, force: false))
    }

    @Test("A job the installer refuses fails visibly and frees its slot once that is delivered")
    func refusedBegin() {
        var machine = QueueMachine(slots: 1)
        let job = submit(&machine, "a")
        _ = machine.startQueued()
        let actions = machine.beginRefused(job.id, error: .installNotAllowed)
        #expect(actions.last == .freeSlotAfterDelivery(0))
        #expect(machine.phase(of: job.id) == .completing)
    }

    @Test("A cleaned-up job is gone")
    func cleanUp() {
        var machine = QueueMachine(slots: 1)
        let job = submit(&machine, "a")
        _ = machine.startQueued()
        machine.completionDelivered(job.id)
        #expect(machine.isIdle)
        let removed = machine.remove(job.id)
        let removedAgain = machine.remove(job.id)
        #expect(removed && !removedAgain)
        #expect(machine.phase(of: job.id) == nil)
    }
}
