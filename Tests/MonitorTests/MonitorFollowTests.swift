import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// The selection follows the work (the running job, its current update) until the operator
/// moves it, and again after `f`.
@Suite("Monitor selection follows the work")
struct MonitorFollowTests {
    @Test("the jobs pane moves to the job that starts once the selected one is done")
    func followsTheRunningJob() {
        var scenario = Scenario(width: 120, height: 30)
        let first = scenario.queue("First", ["a"])
        let second = scenario.queue("Second", ["b", "c"])
        #expect(scenario.state.selectedJobID == first)
        scenario.run(first)
        scenario.startJob(second)
        scenario.startUpdate(second, 0)
        #expect(scenario.state.selectedJobID == second)
        #expect(scenario.state.selectedUpdateIndex == 0)
        scenario.completeUpdate(second, 0, .succeeded)
        scenario.startUpdate(second, 1)
        #expect(scenario.state.selectedUpdateIndex == 1)
    }

    @Test("the updates pane moves to the update the job reports progress on (a driver's current update)")
    func followsTheCurrentUpdate() {
        var scenario = Scenario(width: 120, height: 30)
        let job = scenario.queue("Packages", ["libfoo", "foo", "foo-doc"])
        scenario.startJob(job)
        // Downloads start every package; then the installer works on the first.
        for index in 0..<3 { scenario.startUpdate(job, index) }
        #expect(scenario.state.selectedUpdateIndex == 2)
        scenario.progress(job, 0, 40)
        #expect(scenario.state.selectedUpdateIndex == 0)
        scenario.progress(job, 1, 10)
        #expect(scenario.state.selectedUpdateIndex == 1)
    }

    @Test("once the operator moves the selection it stays; f follows the work again")
    func stopsWhenMovedByHand() {
        var scenario = Scenario(width: 120, height: 30)
        let first = scenario.queue("First", ["a", "b", "c"])
        let second = scenario.queue("Second", ["d"])
        let third = scenario.queue("Third", ["e"])
        scenario.startJob(first)
        scenario.startUpdate(first, 0)
        // In the updates pane: the picked update stays selected as the next one starts.
        scenario.press(.tab, .down, .down)
        #expect(scenario.state.selectedUpdateIndex == 2)
        scenario.completeUpdate(first, 0, .succeeded)
        scenario.startUpdate(first, 1)
        #expect(scenario.state.selectedUpdateIndex == 2)
        // In the jobs pane: the job moved to stays selected while others start and end.
        scenario.press(.backTab, .down)
        #expect(scenario.state.selectedJobID == second)
        scenario.completeUpdate(first, 1, .succeeded)
        scenario.startUpdate(first, 2)
        scenario.completeUpdate(first, 2, .succeeded)
        scenario.completeJob(first)
        scenario.startJob(third)
        scenario.startUpdate(third, 0)
        #expect(scenario.state.selectedJobID == second)
        scenario.press(.character("f"))
        #expect(scenario.state.selectedJobID == third)
        #expect(scenario.state.selectedUpdateIndex == 0)
        #expect(scenario.state.status?.text == "Following the running job")
        scenario.startJob(second)
        scenario.completeUpdate(third, 0, .succeeded)
        scenario.completeJob(third)
        scenario.startUpdate(second, 0)
        #expect(scenario.state.selectedJobID == second, "following again after f")
    }
}
