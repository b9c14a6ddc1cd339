import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// The monitor with a fleet (every job a host a driver declared): hosts waiting for a fork or a
/// later batch show their place, the header counts hosts and tasks, a skipped task has its mark.
@Suite("Monitor: a fleet of hosts")
struct MonitorFleetTests {
    private func host(_ scenario: inout Scenario, id: Int, tasks: [String] = ["Install", "Configure"]) {
        scenario.send(.jobQueued(JobDescriptor(
            id: id, name: "h\(id)", operation: .install, updates: tasks.map { Update(id: $0) }, stopOnFailure: false,
            runByDriver: true, declaredByDriver: true)))
    }

    @Test("Waiting hosts show their place; the header says hosts, running, done and failed, and tasks")
    func board() {
        var scenario = Scenario()
        for id in 1...4 { host(&scenario, id: id) }
        scenario.send(.jobStarted(job: 1))
        scenario.send(.jobStarted(job: 2))
        scenario.send(.updateStarted(job: 2, index: 0, updateID: "Install"))
        scenario.send(.updateCompleted(job: 2, index: 0, updateID: "Install",
                                       result: UpdateInstallationResult(resultCode: .failed, hResult: .installerFailure, reason: "boom")))
        scenario.send(.updateCompleted(job: 2, index: 1, updateID: "Configure",
                                       result: UpdateInstallationResult(resultCode: .aborted, hResult: .callCancelled, reason: "not started: host failed")))
        scenario.send(.jobCompleted(job: 2, result: .combining(
            [UpdateInstallationResult(resultCode: .failed), UpdateInstallationResult(resultCode: .aborted)], abortRequested: false)))
        let screen = scenario.render().lines.joined(separator: "\n")
        // h2's failed and never-started tasks have ended but are not done (JobCounts), as its row says.
        #expect(screen.contains("4 hosts · 1 running · 1 done · 1 failed · 0/8 tasks"), "\(screen)")
        #expect(screen.contains("failed 0/2"), "\(screen)")
        #expect(screen.contains("queued #1") && screen.contains("queued #2"), "\(screen)")
    }

    @Test("A host whose task failed reads failed (list and pane title); hosts stopped by A count as aborted, not failed")
    func failedAndAbortedApart() {
        var scenario = Scenario()
        let tasks = ["Gather", "Install", "Configure", "Restart", "Check", "Report"]
        for id in 1...3 { host(&scenario, id: id, tasks: tasks) }
        for id in 1...3 { scenario.send(.jobStarted(job: id)) }
        // h1: its first task succeeds, its second fails, and it stops (rule 16 makes the mix
        // succeededWithErrors).
        var results = [UpdateInstallationResult(resultCode: .succeeded), UpdateInstallationResult(resultCode: .failed, reason: "boom")]
        results += Array(repeating: UpdateInstallationResult(resultCode: .aborted, hResult: .callCancelled), count: 4)
        for (index, result) in results.enumerated() {
            scenario.send(.updateCompleted(job: 1, index: index, updateID: tasks[index], result: result))
        }
        let combined = InstallationResult.combining(results, abortRequested: false)
        #expect(combined.resultCode == .succeededWithErrors)
        scenario.send(.jobCompleted(job: 1, result: combined))
        // h2 and h3: stopped by A.
        for id in 2...3 {
            let stopped = Array(repeating: UpdateInstallationResult(resultCode: .aborted, hResult: .callCancelled), count: tasks.count)
            scenario.send(.jobAbortRequested(job: id, force: false))
            scenario.send(.jobCompleted(job: id, result: .combining(stopped, abortRequested: true)))
        }
        // The selection followed the work to h3; the operator goes back to h1.
        _ = scenario.press(.home)
        let screen = scenario.render().lines.joined(separator: "\n")
        #expect(screen.contains("3 hosts · 0 running · 3 done · 1 failed · 2 aborted"), "\(screen)")
        let row = scenario.render().lines.first { $0.contains("h1") && $0.contains("✖") }
        #expect(row?.contains("failed 1/6") == true, "\(screen)")
        #expect(!screen.contains("with errors"), "\(screen)")
        #expect(screen.contains("h1 · install · failed 1/6"), "the updates pane's title: \(screen)")
    }

    @Test("A skipped task shows the skipped mark and word, not a full bar")
    func skipped() {
        var scenario = Scenario()
        host(&scenario, id: 1)
        scenario.send(.jobStarted(job: 1))
        scenario.send(.updateStarted(job: 1, index: 0, updateID: "Install"))
        var result = UpdateInstallationResult(resultCode: .succeeded, reason: "conditional result was False")
        result.mark = .skipped
        scenario.send(.updateCompleted(job: 1, index: 0, updateID: "Install", result: result))
        let row = scenario.render().lines.first { $0.contains("Install") && $0.contains("↷") }
        #expect(row?.contains("skipped") == true, "\(scenario.render().lines.joined(separator: "\n"))")
    }
}
