import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// What a completed job ignored (malformed channel lines, driver protocol errors) is shown in
/// its detail, the updates pane's title.
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
}
