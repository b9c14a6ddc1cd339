import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// While a job stops (an abort asked for, apt finishing the running package) nothing can say
/// when it ends: no ETA is shown, not `0ms`; and the hint to force the abort lasts only as long
/// as the abort does.
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

    @Test("The force hint goes when the job it is about completes, before its five seconds are up")
    func forceHintGoesWithTheJob() throws {
        var (scenario, job) = aptJob(percent: 40)
        scenario.press(.character("a"))
        scenario.press(.character("y"))
        #expect(scenario.screen().contains("press a again to force it"), "\(scenario.screen())")
        scenario.send(.jobAbortRequested(job: job, force: false))
        scenario.advance(1)
        #expect(scenario.screen().contains("press a again to force it"), "still shown while it aborts:\n\(scenario.screen())")
        scenario.send(.progress(job: job, index: 0, updatePercent: 100, jobPercent: 33, message: "installed"))
        scenario.completeUpdate(job, 0, .succeeded)
        scenario.completeJob(job)
        let screen = scenario.screen()
        #expect(!screen.contains("again to force"), "the job has ended:\n\(screen)")
        #expect(scenario.state.status == nil)
    }

    @Test("A's force hint goes once every job it aborts has ended, not before")
    func abortAllHintGoesWithTheLastJob() throws {
        var scenario = Scenario(width: 120, height: 30)
        let first = scenario.queue("Tools", ["jq"])
        let second = scenario.queue("Fonts", ["fonts-noto"])
        scenario.startJob(first)
        scenario.startUpdate(first, 0)
        scenario.press(.character("A"))
        scenario.press(.character("y"))
        #expect(scenario.state.status?.text.contains("press A again to force") == true)
        scenario.completeUpdate(first, 0, .aborted, reason: "aborted")
        scenario.completeJob(first)
        #expect(scenario.state.status?.text.contains("press A again to force") == true, "Fonts has not ended yet")
        scenario.completeJob(second)
        #expect(scenario.state.status == nil, "\(String(describing: scenario.state.status))")
    }

    @Test("A yes to the abort question after the job ended sends nothing and says it has completed")
    func yesAfterTheEnd() {
        var (scenario, job) = aptJob(percent: 40)
        scenario.press(.character("a"))
        scenario.completeUpdate(job, 0, .succeeded)
        scenario.completeJob(job)
        let effects = scenario.press(.character("y"))
        #expect(Scenario.commands(effects).isEmpty, "\(effects)")
        #expect(scenario.state.status?.text == "apt upgrade has already completed", "\(String(describing: scenario.state.status))")
    }
}
