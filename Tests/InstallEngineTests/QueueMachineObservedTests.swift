import InstallEngine
import Testing

/// Observed jobs in the queue's rules (rule 28): another program's transaction is running when
/// it is submitted, so it begins at once beside the slots and never holds one.
@Suite("Queue state machine: observed jobs")
struct QueueMachineObservedTests {
    static let initiator = ObservedInitiator(
        pid: 812, startTicks: 4242, program: "apt-get", commandLine: ["apt-get", "install", "nginx"], uid: 0, user: "root",
        terminal: "pts/1")

    @Test("With one slot taken by a job, an observed job begins at once; with it running, a queued job still starts on the free slot")
    func noSlot() {
        var machine = QueueMachine(slots: 1)
        let own = machine.submit(name: "own", operation: .install, updates: [update("own-1")], stopOnFailure: false).0
        #expect(machine.startQueued() == [.begin(own, slot: 0)])

        let (observed, actions) = machine.submit(
            name: "apt-get install nginx", operation: .install, updates: [update("nginx")], stopOnFailure: false,
            runByDriver: true, observedBy: Self.initiator)
        #expect(actions == [.publish(.jobQueued(observed)), .beginObserved(observed)], "it waits for no slot")
        #expect(machine.phase(of: observed.id) == .observedRunning)
        #expect(machine.startQueued().isEmpty)

        machine.completionDelivered(own.id)
        let next = machine.submit(name: "next", operation: .install, updates: [update("next-1")], stopOnFailure: false).0
        #expect(machine.slotFreed(0) == [.begin(next, slot: 0)], "the observed job running beside it holds no slot")
    }

    @Test("An observed job's end frees no slot; abortAll passes it by (rule 29)")
    func endAndAbortAll() {
        var machine = QueueMachine(slots: 1)
        let observed = machine.submit(
            name: "dpkg -i x.deb", operation: .install, updates: [update("x")], stopOnFailure: false, runByDriver: true,
            observedBy: Self.initiator).0
        let own = machine.submit(name: "own", operation: .install, updates: [update("own-1")], stopOnFailure: false).0
        #expect(machine.startQueued() == [.begin(own, slot: 0)])
        machine.completionDelivered(observed.id)
        #expect(machine.phase(of: observed.id) == .completed)
        let second = machine.submit(name: "second", operation: .install, updates: [update("second-1")], stopOnFailure: false).0
        #expect(machine.startQueued().isEmpty, "the observed job's end gave the queue no second slot")
        #expect(machine.phase(of: second.id) == .queued)
        #expect(!machine.abortAll(force: false).contains(.abortRunning(job: observed.id, force: false)))
    }
}
