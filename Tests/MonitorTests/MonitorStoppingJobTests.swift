import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// While a job stops (an abort asked for, apt finishing the running package) nothing can say
/// when it ends: no ETA is shown, not `0ms`.
@Suite("Monitor: a job that is stopping")
struct MonitorStoppingJobTests {
    /// An apt job of three packages, the first at `percent` after 10 s.
    private func aptJob(percent: Double, width: Int = 120) -> (Scenario, Int) {
        var scenario = Scenario(width: width, height: 30)
        scenario.send(.jobQueued(JobDescriptor(
            id: 1, name: "apt upgrade", operation: .install,
            updates: ["libssl3", "openssl", "curl"].map { Update(id: $0, title: "\($0) 3.0.15") }, stopOnFailure: false, runByDriver: true)))
        scenario.startJob(1)
        scenario.send(.updateStarted(job: 1, index: 0, updateID: "libssl3"))
        for step in 1...10 {
            scenario.advance(1)
            scenario.send(.progress(job: 1, index: 0, updatePercent: percent * Double(step) / 10, jobPercent: percent / 3, message: "unpacking"))
        }
        return (scenario, 1)
    }

    @Test("Before the abort the row and the title show an ETA; while stopping, neither does, and never 0ms")
    func noETAWhileStopping() throws {
        var (scenario, job) = aptJob(percent: 50)
        #expect(scenario.screen().contains("ETA 50s") && scenario.screen().contains("10s unpacking"), "ETAs before the abort:\n\(scenario.screen())")
        scenario.send(.jobAbortRequested(job: job, force: false))
        scenario.send(.progress(job: job, index: 0, updatePercent: 100, jobPercent: 33, message: "stopping after this package (abort requested)"))
        scenario.advance(1)
        let state = try #require(scenario.state.queue.job(job))
        #expect(scenario.state.etaSeconds(job: state, index: 0) == nil)
        #expect(scenario.state.etaSeconds(job: state) == nil)
        let screen = scenario.screen()
        #expect(!screen.contains("ETA"), "\(screen)")
        #expect(!screen.contains("0ms"), "\(screen)")
    }
}
