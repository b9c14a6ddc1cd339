import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// An Ansible run as it starts and stops: what the monitor says before ansible-playbook has
/// declared a host, and what the abort question says about a host's running task.
@Suite("Monitor: a fleet starting and stopping")
struct MonitorFleetStartTests {
    @Test("Before the first host, the starting note replaces \"no jobs\"; a queue emptied later says no jobs")
    func startingNote() {
        var scenario = Scenario(width: 100, height: 30)
        scenario.state.startingNote = "starting ansible-playbook site.yml…"
        let before = scenario.render().lines
        #expect(before[0].contains("starting ansible-playbook site.yml…"), "\(before[0])")
        #expect(before.contains { $0.contains("│starting ansible-playbook site.yml…") }, "the jobs pane says it too")
        #expect(!before.joined().contains("no jobs"))
        scenario.send(.jobQueued(JobDescriptor(
            id: 1, name: "web1", operation: .install, updates: [Update(id: "Install")], stopOnFailure: false,
            runByDriver: true, declaredByDriver: true)))
        #expect(scenario.state.startingNote == nil)
        scenario.send(.jobCompleted(job: 1, result: .combining([UpdateInstallationResult(resultCode: .succeeded)], abortRequested: false)))
        scenario.send(.jobCleanedUp(job: 1))
        #expect(scenario.render().lines[0].contains("no jobs"))
    }

    @Test("Aborting a host says its running task finishes first; a job of updates says its update is stopped")
    func abortQuestionForAHost() {
        var scenario = Scenario(width: 100, height: 30)
        scenario.send(.jobQueued(JobDescriptor(
            id: 10, name: "web1", operation: .install, updates: [Update(id: "Install")], stopOnFailure: false,
            runByDriver: true, declaredByDriver: true)))
        scenario.send(.jobStarted(job: 10))
        scenario.send(.updateStarted(job: 10, index: 0, updateID: "Install"))
        scenario.press(.character("a"))
        let host = scenario.screen()
        #expect(host.contains("Abort web1?") && host.contains("Its running task finishes first."))
        scenario.press(.character("n"))
        let job = scenario.queue("Tools", ["jq"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.press(.home, .character("a"))
        let tools = scenario.screen()
        #expect(tools.contains("Abort Tools?") && tools.contains("Its running update is stopped."))
    }
}
