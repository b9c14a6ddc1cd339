import Foundation
import InstallEngine
import Monitor
import Testing

/// A running observed job (rule 28) is another program's: the monitor's queued-start estimates
/// do not count it as one of the queue's slots.
@Suite("Monitor: observed jobs and queued starts")
struct MonitorObservedEstimateTests {
    @Test("An observed job running beside an own job: the queued job's start is the own job's end, not earlier")
    func observedHoldsNoSlot() {
        var scenario = Scenario()
        _ = scenario.state.handle(.historicalDurations(["u1-0": 50, "u2-0": 20, "foreign": 5]))
        let own = scenario.queue("Own", ["x"])
        let queued = scenario.queue("Queued", ["y"])
        let foreign = Update(id: "foreign", title: "foreign 1.0")
        let initiator = ObservedInitiator(
            pid: 812, startTicks: 1, program: "apt-get", commandLine: ["apt-get", "install", "foreign"], uid: 0, user: "root", terminal: "")
        _ = scenario.send(.jobQueued(JobDescriptor(
            id: 3, name: "apt-get install foreign — root", operation: .install, updates: [foreign], stopOnFailure: false,
            runByDriver: true, observedBy: initiator)))
        scenario.startJob(own)
        scenario.startUpdate(own, 0)
        scenario.startJob(3)
        _ = scenario.send(.updateStarted(job: 3, index: 0, updateID: "foreign"))
        scenario.advance(10)
        #expect(scenario.state.queuedStartEstimates() == [queued: 40], "the foreign job is no slot of the queue's")
    }
}
