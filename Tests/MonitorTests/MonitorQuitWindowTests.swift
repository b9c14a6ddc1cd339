import InstallEngine
import RestartScan
import Testing

@testable import Monitor

/// A job completes only after its restart scan (rule 32). Between its last update's end and
/// its `jobCompleted` nothing is left to abort: `q` quits without asking and the header does
/// not count it as running. Times move only by the scenario's manual clock.
@Suite("monitor: the window while a job waits for its restart scan")
struct MonitorQuitWindowTests {
    /// A two-update job of commands whose updates have both ended; its completion not yet sent.
    private func ended() -> (Scenario, Int) {
        var scenario = Scenario(width: 100, height: 30)
        let job = scenario.queue("Upgrade", ["openssl", "curl"])
        scenario.startJob(job)
        for index in 0..<2 {
            scenario.startUpdate(job, index)
            scenario.advance(0.5)
            scenario.completeUpdate(job, index, .succeeded)
        }
        scenario.advance(0.05)
        return (scenario, job)
    }

    @Test("q right after the last update ended quits at once, asking nothing")
    func quitsWithoutAsking() {
        var (scenario, job) = ended()
        #expect(scenario.state.queue.job(job)?.phase == .running, "the engine has not completed it yet")

        let effects = Scenario.commands(scenario.press(.character("q")))

        #expect(effects == [.quit(abortRunning: false)])
        #expect(scenario.state.overlay == nil)
    }

    @Test("the header counts it as not running")
    func headerAgrees() throws {
        let (scenario, _) = ended()
        let header = try #require(scenario.render().lines.first)
        #expect(header.contains("0 running · 2/2 updates"), "\(header)")
    }

    @Test("between two updates the job still runs: q asks")
    func betweenUpdatesAsks() {
        var scenario = Scenario(width: 100, height: 30)
        let job = scenario.queue("Upgrade", ["openssl", "curl"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.completeUpdate(job, 0, .succeeded)

        #expect(Scenario.commands(scenario.press(.character("q"))).isEmpty)
        #expect(scenario.state.overlay == .confirm(.quit(count: 1)))
    }

    @Test("a job its driver runs (apt) still asks after its last update: its process may still work")
    func driverJobAsks() {
        var scenario = Scenario(width: 100, height: 30)
        scenario.send(.jobQueued(JobDescriptor(id: 1, name: "apt upgrade", operation: .install,
                                               updates: [Update(id: "u1-0", title: "openssl")], stopOnFailure: false, runByDriver: true)))
        scenario.startJob(1)
        scenario.startUpdate(1, 0)
        scenario.completeUpdate(1, 0, .succeeded)

        #expect(Scenario.commands(scenario.press(.character("q"))).isEmpty)
        #expect(scenario.state.overlay == .confirm(.quit(count: 1)))
    }

    @Test("with another job running, the question counts only that one")
    func countsOnlyTheRunning() {
        var (scenario, _) = ended()
        let other = scenario.queue("Tools", ["jq"])
        scenario.startJob(other)
        scenario.startUpdate(other, 0)

        scenario.press(.character("q"))

        #expect(scenario.state.overlay == .confirm(.quit(count: 1)))
    }
}
