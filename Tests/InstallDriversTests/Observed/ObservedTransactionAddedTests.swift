import Foundation
import InstallDrivers
import InstallEngine
import Testing

/// Rule 28 on values: an observed transaction without apt's plan adds an update for each
/// package dpkg begins work on that its job does not have; one with a plan never does.
@Suite("Observed transaction: packages dpkg names later")
struct ObservedTransactionAddedTests {
    private static let lines = [
        "processing: install: lab-first", "status: lab-first: half-installed",
        "processing: install: lab-second", "status: lab-second: half-installed",
        "processing: trigproc: man-db", "processing: configure: lab-first",
    ]

    /// The reports of a transaction of `lab-first` that receives `lines` and ends (against a
    /// dpkg database that does not exist: nothing is installed there).
    private func reports(addsPackages: Bool) async throws -> [DriverReport] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("observed-\(UUID().uuidString)").path
        let initiator = ObservedInitiator(pid: 1, startTicks: 0, program: "dpkg", commandLine: ["dpkg", "-i"], uid: 0, user: "root", terminal: "")
        let transaction = ObservedTransaction(
            initiator: initiator, changes: [PackageChange(package: "lab-first", action: .install)], administrativeDirectory: folder,
            addsPackages: addsPackages)
        let driver = ObservedJobDriver(transaction: transaction)
        #expect(driver.addsUpdates == addsPackages)
        let recorder = RecordingDriverReporter()
        let running = driver.start(DriverRunRequest(updates: [], operation: .install, jobName: "dpkg -i"), reporter: recorder)
        transaction.receive(statusLines: Self.lines)
        transaction.end()
        _ = await running.outcome
        return recorder.reports.withLock { $0 }
    }

    @Test("Without a plan: lab-second is added when dpkg begins it, then gets its phases and dpkg's verdict; a trigger run adds nothing")
    func added() async throws {
        let reports = try await reports(addsPackages: true)
        let added = reports.compactMap { if case .updateAdded(let update) = $0 { update } else { nil } }
        #expect(added.map(\.id) == ["lab-second"])
        #expect(added.first?.package?.action == .install)
        let addedAt = try #require(reports.firstIndex { if case .updateAdded = $0 { true } else { false } })
        #expect(reports[(addedAt + 1)...].contains(.update(index: 1, .progress(percent: 20, message: "unpacking"))))
        let finished = reports.compactMap { if case .updateFinished(let index, _) = $0 { index } else { nil } }
        #expect(finished == [0, 1], "each package checked against dpkg's final state")
        #expect(!reports.contains { if case .updateStarted(let index) = $0 { index == 1 } else { false } }, "its addition is its start")
    }

    @Test("With a plan: a package outside it is not added")
    func notAdded() async throws {
        let reports = try await reports(addsPackages: false)
        #expect(!reports.contains { if case .updateAdded = $0 { true } else { false } })
        #expect(reports.compactMap { if case .updateFinished(let index, _) = $0 { index } else { nil } } == [0])
    }
}
