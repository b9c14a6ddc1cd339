import InstallEngine
import InstallEngineTesting
import Synchronization
import Testing
import TestProcessSupport

/// Jobs that await confirmation (an apt plan shown before it runs): the queue holds them until
/// `confirm`, an abort completes them at once, as it does a queued job (rule 13), and a decline
/// (the operator's no) takes them out without results.
@Suite("Queue state machine: jobs awaiting confirmation")
struct QueueMachineConfirmationTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    private func submit(_ machine: inout QueueMachine, _ name: String, awaitsConfirmation: Bool = false) -> JobDescriptor {
        machine.submit(
            name: name, operation: .install, updates: [update("\(name)-1"), update("\(name)-2")], stopOnFailure: false,
            awaitsConfirmation: awaitsConfirmation
        ).0
    }

    private func begun(_ actions: [QueueAction]) -> [Int] {
        actions.compactMap { if case .begin(let job, _) = $0 { job.id } else { nil } }
    }

    private func expectThrows(_ expected: JobCommandError, _ body: () throws(JobCommandError) -> [QueueAction]) {
        do {
            let actions = try body()
            Issue.record("should throw \(expected), returned \(actions)")
        } catch {
            #expect(error == expected)
        }
    }

    @Test("A job submitted awaiting confirmation is held: its descriptor says so and it is announced as queued")
    func submitHolds() {
        var machine = QueueMachine(slots: 1)
        let (held, actions) = machine.submit(
            name: "apt", operation: .install, updates: [update("p")], stopOnFailure: false, awaitsConfirmation: true)
        #expect(held.awaitsConfirmation)
        #expect(machine.descriptor(of: held.id)?.awaitsConfirmation == true)
        #expect(machine.phase(of: held.id) == .awaitingConfirmation)
        #expect(actions == [.publish(.jobQueued(held))], "subscribers see the descriptor that asks for confirmation")
        let ordinary = submit(&machine, "b")
        #expect(!ordinary.awaitsConfirmation)
        #expect(machine.phase(of: ordinary.id) == .queued)
    }

    @Test("startQueued passes over a job awaiting confirmation and begins a later ordinary job")
    func startQueuedSkipsHeld() {
        var machine = QueueMachine(slots: 1)
        let held = submit(&machine, "a", awaitsConfirmation: true)
        let ordinary = submit(&machine, "b")
        #expect(machine.startQueued() == [.begin(ordinary, slot: 0)])
        #expect(machine.phase(of: held.id) == .awaitingConfirmation)
        #expect(!machine.isIdle, "a held job keeps the queue from being idle")
    }

    /// `held` as it is once confirmed: it no longer awaits confirmation.
    private func confirmed(_ held: JobDescriptor) -> JobDescriptor {
        var descriptor = held
        descriptor.awaitsConfirmation = false
        return descriptor
    }

    @Test("confirm says so (job.confirmed, before anything else), then begins the job at once when a slot is free")
    func confirmBeginsOnFreeSlot() throws {
        var machine = QueueMachine(slots: 1)
        let held = submit(&machine, "a", awaitsConfirmation: true)
        #expect(machine.startQueued().isEmpty)
        let actions = try machine.confirm(held.id)
        #expect(actions == [.publish(.jobConfirmed(job: held.id)), .begin(confirmed(held), slot: 0)])
        #expect(machine.descriptor(of: held.id)?.awaitsConfirmation == false)
        #expect(machine.phase(of: held.id) == .running(slot: 0))
    }

    @Test("A confirmed job waits for a slot like any queued job, in job-number order")
    func confirmWaitsForSlot() throws {
        var machine = QueueMachine(slots: 1)
        let running = submit(&machine, "a")
        let held = submit(&machine, "b", awaitsConfirmation: true)
        let later = submit(&machine, "c")
        #expect(begun(machine.startQueued()) == [running.id])
        #expect(try machine.confirm(held.id) == [.publish(.jobConfirmed(job: held.id))], "said, but no slot is free")
        #expect(machine.phase(of: held.id) == .queued)
        machine.completionDelivered(running.id)
        // Job numbers keep the order: the confirmed job 2 goes before job 3.
        #expect(machine.slotFreed(0) == [.begin(confirmed(held), slot: 0)])
        #expect(machine.phase(of: later.id) == .queued)
    }

    @Test("Confirming twice, or confirming a job that needs no confirmation, changes nothing")
    func confirmIsIdempotent() throws {
        var machine = QueueMachine(slots: 1)
        let held = submit(&machine, "a", awaitsConfirmation: true)
        let ordinary = submit(&machine, "b")
        #expect(try machine.confirm(held.id) == [.publish(.jobConfirmed(job: held.id)), .begin(confirmed(held), slot: 0)])
        #expect(try machine.confirm(held.id).isEmpty)
        #expect(machine.phase(of: held.id) == .running(slot: 0))
        #expect(try machine.confirm(ordinary.id).isEmpty)
        #expect(machine.phase(of: ordinary.id) == .queued)
        machine.completionDelivered(held.id)
        #expect(machine.slotFreed(0) == [.begin(ordinary, slot: 0)])
        #expect(try machine.confirm(ordinary.id).isEmpty, "confirming a running job changes nothing either")
        #expect(machine.phase(of: ordinary.id) == .running(slot: 0))
    }

    @Test("confirm of an unknown job throws unknownJob; of a completed one, alreadyCompleted")
    func confirmErrors() throws {
        var machine = QueueMachine(slots: 1)
        expectThrows(.unknownJob(42)) { () throws(JobCommandError) in try machine.confirm(42) }
        let held = submit(&machine, "a", awaitsConfirmation: true)
        _ = try machine.abort(held.id, force: false)
        #expect(machine.phase(of: held.id) == .completing)
        expectThrows(.alreadyCompleted(held.id)) { () throws(JobCommandError) in try machine.confirm(held.id) }
        machine.completionDelivered(held.id)
        expectThrows(.alreadyCompleted(held.id)) { () throws(JobCommandError) in try machine.confirm(held.id) }
        #expect(machine.phase(of: held.id) == .completed, "a failed confirm leaves the job as it was")
    }

    @Test("Aborting a job awaiting confirmation completes it at once, every update aborted with callCancelled")
    func abortHeld() throws {
        var machine = QueueMachine(slots: 1)
        let held = submit(&machine, "a", awaitsConfirmation: true)
        let actions = try machine.abort(held.id, force: false)
        #expect(actions.first == .publish(.jobAbortRequested(job: held.id, force: false)))
        let updateResults = actions.compactMap { action -> UpdateInstallationResult? in
            if case .publish(.updateCompleted(let completion)) = action { completion.result } else { nil }
        }
        #expect(updateResults.count == held.updates.count)
        #expect(updateResults.allSatisfy { $0.resultCode == .aborted && $0.hResult == .callCancelled })
        guard case .publish(.jobCompleted(let completion))? = actions.last else {
            Issue.record("the abort of a held job ends with its completion: \(actions)")
            return
        }
        #expect(completion.job == held.id)
        #expect(completion.result.resultCode == .aborted)
        #expect(completion.result.updateResults.allSatisfy { $0.resultCode == .aborted && $0.hResult == .callCancelled })
        #expect(!actions.contains { if case .abortRunning = $0 { true } else { false } }, "nothing runs, nothing to signal")
        machine.completionDelivered(held.id)
        #expect(begun(machine.startQueued()).isEmpty, "the aborted job never starts")
        #expect(machine.isIdle)
    }

    @Test("abortAll aborts jobs awaiting confirmation too, with the queued ones before the running ones")
    func abortAllIncludesHeld() {
        var machine = QueueMachine(slots: 1)
        let running = submit(&machine, "a")
        let held = submit(&machine, "b", awaitsConfirmation: true)
        _ = machine.startQueued()
        let actions = machine.abortAll(force: false)
        let completed = actions.compactMap { action -> Int? in
            if case .publish(.jobCompleted(let completion)) = action { completion.job } else { nil }
        }
        #expect(completed == [held.id])
        #expect(actions.first == .publish(.jobAbortRequested(job: held.id, force: false)))
        #expect(actions.last == .abortRunning(job: running.id, force: false))
        #expect(machine.phase(of: held.id) == .completing)
    }

    @Test("Through JobQueue: a job submitted awaiting confirmation starts only after confirm(job:)")
    func jobQueueHoldsUntilConfirmed() async throws {
        let backend = ScriptedBackend()
        let queue = JobQueue(backend: backend, configuration: configuration)
        let held = try queue.submit(name: "held", updates: [update("a")], awaitsConfirmation: true)
        let ordinary = try queue.submit(name: "ordinary", updates: [update("b")])
        #expect(held.awaitsConfirmation)
        // One slot: had the held job 1 been queued, it would have run before job 2.
        #expect(await eventually { queue.snapshot().job(ordinary.id)?.phase == .completed })
        #expect(backend.startedUpdateIDs == ["b"])
        #expect(queue.snapshot().job(held.id)?.phase == .queued)
        try queue.confirm(job: held.id)
        await queue.waitUntilIdle()
        #expect(backend.startedUpdateIDs == ["b", "a"])
        #expect(queue.snapshot().job(held.id)?.result?.resultCode == .succeeded)
        #expect(throws: JobCommandError.alreadyCompleted(held.id)) { try queue.confirm(job: held.id) }
        #expect(throws: JobCommandError.unknownJob(99)) { try queue.confirm(job: 99) }
    }

    @Test("decline takes a job awaiting confirmation out without results: no update completes, no abort, it leaves once its clean-up is delivered")
    func declineLeavesWithoutResults() throws {
        var machine = QueueMachine(slots: 1)
        let held = submit(&machine, "a", awaitsConfirmation: true)
        let actions = try machine.decline(held.id)
        #expect(actions == [.publish(.jobCleanedUp(job: held.id))], "no update.completed, job.completed or abort request: nothing happened")
        #expect(machine.phase(of: held.id) == .declined)
        #expect(!machine.isIdle, "its clean-up is still on its way to subscribers")
        #expect(try machine.decline(held.id).isEmpty, "declined twice changes nothing")
        expectThrows(.alreadyCompleted(held.id)) { () throws(JobCommandError) in try machine.confirm(held.id) }
        expectThrows(.alreadyCompleted(held.id)) { () throws(JobCommandError) in try machine.abort(held.id, force: false) }
        #expect(machine.abortAll(force: false).isEmpty, "abortAll leaves a declined job alone")
        machine.declineDelivered(held.id)
        #expect(machine.phase(of: held.id) == nil)
        #expect(machine.isIdle)
    }

    @Test("decline refuses a job that needs no confirmation, or has it already, and an unknown one")
    func declineRefusesOthers() throws {
        var machine = QueueMachine(slots: 1)
        let ordinary = submit(&machine, "a")
        expectThrows(.notAwaitingConfirmation(ordinary.id)) { () throws(JobCommandError) in try machine.decline(ordinary.id) }
        let held = submit(&machine, "b", awaitsConfirmation: true)
        _ = try machine.confirm(held.id)
        expectThrows(.notAwaitingConfirmation(held.id)) { () throws(JobCommandError) in try machine.decline(held.id) }
        expectThrows(.unknownJob(99)) { () throws(JobCommandError) in try machine.decline(99) }
    }

    @Test("Through JobQueue: a declined job is seen queued, then cleaned up, never started or completed; the queue is then idle")
    func jobQueueDecline() async throws {
        let backend = ScriptedBackend()
        let queue = JobQueue(backend: backend, configuration: configuration)
        let seen = Mutex<[EngineEvent.Kind]>([])
        queue.subscribe { event in seen.withLock { $0.append(event.kind) } }
        let held = try queue.submit(name: "held", updates: [update("a")], awaitsConfirmation: true)
        try queue.perform(.decline(job: held.id))
        await queue.waitUntilIdle()
        #expect(seen.withLock { $0 } == [.jobQueued(held), .jobCleanedUp(job: held.id)], "waitUntilIdle returns after subscribers saw it go")
        #expect(backend.startedUpdateIDs.isEmpty)
        #expect(queue.snapshot().job(held.id) == nil)
        #expect(throws: JobCommandError.unknownJob(held.id)) { try queue.decline(job: held.id) }
    }
}
