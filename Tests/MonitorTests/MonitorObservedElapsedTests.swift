import Foundation
import InstallEngine
import Testing

@testable import Monitor

/// An observed job's rows show each package's own time, from its result: the span dpkg's lines
/// gave it, or nothing when they never showed it (its start unknown), never a `0:00` made of the
/// moment the transaction ended.
@Suite("Monitor: an observed job's elapsed times")
struct MonitorObservedElapsedTests {
    @Test("A package with its span shows it; one whose start is unknown shows no time, though the engine announced its start")
    func elapsedFromTheResult() throws {
        var scenario = Scenario(width: 120, height: 30)
        let initiator = ObservedInitiator(
            pid: 812, startTicks: 1, program: "apt-get", commandLine: ["apt-get", "upgrade"], uid: 0, user: "root", terminal: "pts/1")
        scenario.send(.jobQueued(JobDescriptor(
            id: 1, name: "apt-get upgrade — root on pts/1", operation: .install,
            updates: ["libssl3", "openssl", "curl"].map { Update(id: $0, title: "\($0) 3.0.15") }, stopOnFailure: false,
            runByDriver: true, observedBy: initiator)))
        scenario.startJob(1)
        let start = scenario.now
        scenario.send(.updateStarted(job: 1, index: 0, updateID: "libssl3"))
        scenario.advance(7)
        let installed = scenario.now
        scenario.advance(50)
        // The transaction's end: libssl3 with the span dpkg's lines gave it, openssl and curl
        // never seen in them.
        scenario.send(.updateCompleted(job: 1, index: 0, updateID: "libssl3", result: UpdateInstallationResult(
            resultCode: .succeeded, startedAt: start, endedAt: installed)))
        for (index, id) in [(1, "openssl"), (2, "curl")] {
            scenario.send(.updateStarted(job: 1, index: index, updateID: id))
            scenario.send(.updateCompleted(job: 1, index: index, updateID: id, result: UpdateInstallationResult(
                resultCode: .succeeded, startedAt: nil, endedAt: scenario.now)))
        }
        scenario.completeJob(1)
        let job = try #require(scenario.state.queue.job(1))
        #expect(scenario.state.elapsedSeconds(job: job, index: 0) == 7)
        #expect(scenario.state.elapsedSeconds(job: job, index: 1) == nil)
        let lines = scenario.render().lines
        let row = try #require(lines.first { $0.contains("libssl3 3.0.15") })
        #expect(row.contains("0:07"), "\(row)")
        let unseen = lines.filter { $0.contains("✔ openssl 3.0.15") || $0.contains("✔ curl 3.0.15") }
        #expect(unseen.count == 2 && !unseen.contains { $0.contains("0:00") }, "\(unseen.joined(separator: "\n"))")
    }
}
