import InstallEngine
import Testing

/// Driver sessions in the queue's rules (rule 27): a session waits for a slot like a job and
/// holds one however many jobs it declares; its jobs wait for the driver, start without a slot
/// of their own, and are told to stop when aborted before the driver started them.
@Suite("Queue state machine: driver sessions")
struct QueueMachineSessionTests {
    private func declare(_ machine: inout QueueMachine, _ name: String, session: Int) -> JobDescriptor {
        machine.submitDriven(name: name, operation: .install, updates: [update("\(name)-1"), update("\(name)-2")], session: session).0
    }

    @Test("A session waits for a slot in submission order and holds one; a job submitted after it waits for that slot")
    func oneSlot() {
        var machine = QueueMachine(slots: 1)
        let first = machine.submit(name: "a", operation: .install, updates: [update("a-1")], stopOnFailure: false).0
        let session = machine.submitSession()
        let after = machine.submit(name: "b", operation: .install, updates: [update("b-1")], stopOnFailure: false).0
        #expect(machine.startQueued() == [.begin(first, slot: 0)])
        machine.completionDelivered(first.id)
        #expect(machine.slotFreed(0) == [.beginSession(session, slot: 0)], "the session came before the later job")
        #expect(!machine.isIdle, "a running session keeps the queue busy")
        #expect(machine.sessionEnded(session) == [.begin(after, slot: 0)])
    }

    @Test("Declared jobs wait for their driver, begin without a slot, and are not started by startQueued")
    func drivenJobs() {
        var machine = QueueMachine(slots: 1)
        let session = machine.submitSession()
        _ = machine.startQueued()
        let host = declare(&machine, "h1", session: session)
        #expect(host.runByDriver && host.declaredByDriver)
        #expect(machine.phase(of: host.id) == .awaitingDriver(session: session))
        #expect(machine.startQueued().isEmpty)
        #expect(machine.beginDriven(host.id) == [.beginDriven(host)])
        #expect(machine.phase(of: host.id) == .drivenRunning(session: session))
        #expect(machine.beginDriven(host.id).isEmpty, "begun once")
        #expect(machine.session(of: host.id) == session)
    }

    @Test("Aborting a job its driver has not started completes it at once and tells the session to stop it")
    func abortBeforeStart() throws {
        var machine = QueueMachine(slots: 1)
        let session = machine.submitSession()
        _ = machine.startQueued()
        let host = declare(&machine, "h1", session: session)
        let actions = try machine.abort(host.id, force: false)
        #expect(actions.contains(.stopDriven(job: host.id, session: session, force: false)))
        guard case .publish(.jobCompleted(let completion))? = actions.last else {
            Issue.record("the job completes at once: \(actions)")
            return
        }
        #expect(completion.result.resultCode == .aborted)
        #expect(completion.result.updateResults.allSatisfy { $0.hResult == .callCancelled })
    }

    @Test("abortAll stops every session too (for the jobs it has not declared yet); a running driven job is asked to abort")
    func abortAll() {
        var machine = QueueMachine(slots: 1)
        let session = machine.submitSession()
        _ = machine.startQueued()
        let host = declare(&machine, "h1", session: session)
        _ = machine.beginDriven(host.id)
        let actions = machine.abortAll(force: false)
        #expect(actions.contains(.abortRunning(job: host.id, force: false)))
        #expect(actions.last == .stopSession(session, force: false))
    }

    @Test("A job that ends before its driver started it completes with the result given")
    func endUndriven() {
        var machine = QueueMachine(slots: 1)
        let session = machine.submitSession()
        _ = machine.startQueued()
        let host = declare(&machine, "h1", session: session)
        let reason = UpdateInstallationResult(resultCode: .failed, hResult: .installerFailure, reason: "not reached")
        let actions = machine.endUndriven(host.id, every: reason, abortRequested: false)
        let completed = actions.compactMap { action -> Int? in
            if case .publish(.updateCompleted(let completion)) = action { return completion.index }
            return nil
        }
        #expect(completed == [0, 1])
        #expect(machine.endUndriven(host.id, every: reason, abortRequested: false).isEmpty, "once")
    }
}
