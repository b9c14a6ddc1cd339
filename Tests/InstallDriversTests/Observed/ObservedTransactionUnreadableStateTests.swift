import Foundation
import InstallDrivers
import InstallEngine
import Testing

/// At the end of an observed transaction each package's result comes from dpkg's final state
/// (rule 30). When dpkg-query cannot give it, the results say so: they never take the empty
/// answer for every package being not installed.
@Suite("Observed transaction: dpkg's final state unreadable")
struct ObservedTransactionUnreadableStateTests {
    @Test("dpkg-query fails on the database: a started package failed saying the state could not be read, an unseen one not reached")
    func unreadableState() async throws {
        // A status file dpkg-query refuses (exit 2): what it says is not the packages' state.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("observed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/info", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "Package: lab-a\nStatus: garbage words here\nVersion: 1.0\n\n".write(toFile: folder + "/status", atomically: true, encoding: .utf8)
        let initiator = ObservedInitiator(pid: 1, startTicks: 0, program: "apt-get", commandLine: ["apt-get", "install"], uid: 0, user: "root", terminal: "")
        let transaction = ObservedTransaction(
            initiator: initiator,
            changes: [PackageChange(package: "lab-a", action: .install, newVersion: "1.0"), PackageChange(package: "lab-b", action: .install, newVersion: "1.0")],
            administrativeDirectory: folder)
        let recorder = RecordingDriverReporter()
        let running = ObservedJobDriver(transaction: transaction)
            .start(DriverRunRequest(updates: [], operation: .install, jobName: "apt-get install"), reporter: recorder)
        transaction.receive(statusLines: ["processing: install: lab-a", "status: lab-a: half-installed", "status: lab-a: unpacked"])
        transaction.end()
        _ = await running.outcome
        let verdicts = Dictionary(uniqueKeysWithValues: recorder.reports.withLock { $0 }.compactMap { report -> (Int, DriverVerdict)? in
            if case .updateFinished(let index, let verdict) = report { (index, verdict) } else { nil }
        })
        let started = try #require(verdicts[0])
        let unseen = try #require(verdicts[1])
        #expect(started.resultCode == .failed, "\(started)")
        #expect(started.reason?.hasPrefix("dpkg's final state could not be read: dpkg-query exited 2") == true, "\(started)")
        #expect(unseen.resultCode == .aborted && unseen.startUnknown, "\(unseen)")
    }
}
