import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// What a completed job ignored (malformed channel lines, driver protocol errors) or never
/// received (lines the hooks' relay dropped) is shown in the updates pane's title and its detail.
@Suite("Monitor: ignored lines in a job's detail")
struct MonitorIgnoredLinesTests {
    @Test("A completed job that ignored lines says how many; one that ignored none says nothing")
    func ignoredLinesInTheTitle() {
        var scenario = Scenario(width: 160, height: 30)
        scenario.send(.jobQueued(JobDescriptor(id: 1, name: "patch", operation: .install, updates: [Update(id: "a")], stopOnFailure: false)))
        scenario.send(.jobStarted(job: 1))
        #expect(!scenario.screen().contains("ignored"))
        var result = InstallationResult.combining([UpdateInstallationResult(resultCode: .succeeded)], abortRequested: false)
        result.ignoredLines = 3
        result.protocolErrors = 1
        scenario.send(.jobCompleted(job: 1, result: result))
        #expect(scenario.screen().contains("patch · install · succeeded 1/1 · 100% · 3 lines ignored, 1 protocol error"), "\(scenario.screen())")
    }

    @Test("An observed job the relay dropped lines of says how many in the updates pane's title and in its detail")
    func droppedLinesInTheTitleAndDetail() {
        var scenario = Scenario(width: 160, height: 30)
        let apt = ObservedInitiator(pid: 812, startTicks: 93_412, program: "apt-get", commandLine: ["apt-get", "install", "lab-a"],
                                    uid: 0, user: "root", terminal: "pts/1")
        scenario.send(.jobQueued(JobDescriptor(id: 1, name: "apt-get install lab-a", operation: .install, updates: [Update(id: "lab-a")],
                                               stopOnFailure: false, observedBy: apt)))
        scenario.startJob(1)
        scenario.startUpdate(1, 0)
        scenario.completeUpdate(1, 0, .succeeded)
        var result = InstallationResult.combining(scenario.state.queue.job(1)?.updates.map(\.result) ?? [], abortRequested: false)
        result.droppedLines = 4
        scenario.send(.jobCompleted(job: 1, result: result))
        #expect(scenario.screen().contains("succeeded 1/1 · 100% · 4 lines dropped"), "\(scenario.screen())")
        scenario.press(.enter)
        #expect(scenario.screen().contains("succeeded · 1/1 updates done · 4 lines dropped"), "\(scenario.screen())")
    }
}
