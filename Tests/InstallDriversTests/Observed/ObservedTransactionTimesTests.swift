import Foundation
import InstallDrivers
import InstallEngine
import Testing

/// An observed package's time is its own: from dpkg's first line about it to the line that left
/// it in its final state, though its result waits for the transaction's end (rule 30); a package
/// dpkg's lines never showed has no known time, not one of zero at the end.
@Suite("Observed transaction: each package's time")
struct ObservedTransactionTimesTests {
    @Test("A removal seen to its end carries that end; one never seen says its start is unknown and is not started at the end")
    func packageTimes() async throws {
        // Nothing is installed in a dpkg database that does not exist: both removals are done.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("observed-\(UUID().uuidString)").path
        let initiator = ObservedInitiator(pid: 1, startTicks: 0, program: "apt-get", commandLine: ["apt-get", "remove"], uid: 0, user: "root", terminal: "")
        let transaction = ObservedTransaction(
            initiator: initiator, changes: [PackageChange(package: "lab-seen", action: .remove), PackageChange(package: "lab-unseen", action: .remove)],
            administrativeDirectory: folder)
        let recorder = RecordingDriverReporter()
        let running = ObservedJobDriver(transaction: transaction)
            .start(DriverRunRequest(updates: [], operation: .uninstall, jobName: "apt-get remove"), reporter: recorder)
        let before = Date()
        transaction.receive(statusLines: [
            "processing: remove: lab-seen", "status: lab-seen: half-configured", "status: lab-seen: half-installed",
            "status: lab-seen: config-files",
        ])
        let after = Date()
        transaction.end()
        _ = await running.outcome
        let reports = recorder.reports.withLock { $0 }
        let verdicts = Dictionary(uniqueKeysWithValues: reports.compactMap { report -> (Int, DriverVerdict)? in
            if case .updateFinished(let index, let verdict) = report { (index, verdict) } else { nil }
        })
        let seen = try #require(verdicts[0])
        let unseen = try #require(verdicts[1])
        #expect(seen.resultCode == .succeeded && !seen.startUnknown)
        let end = try #require(seen.endedAt, "the time of its config-files line")
        #expect(end >= before && end <= after)
        #expect(unseen.resultCode == .succeeded && unseen.startUnknown && unseen.endedAt == nil, "\(unseen)")
        #expect(!reports.contains(.updateStarted(index: 1)), "no start made up at the end: \(reports)")
    }
}
