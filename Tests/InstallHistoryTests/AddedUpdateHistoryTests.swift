import Foundation
import InstallEngine
@testable import InstallHistory
import Testing

/// An update added to a running job (rule 28: a package dpkg names later in an observed job
/// without a plan) has its history row like the job's others.
@Suite("History: an update added to a running job")
final class AddedUpdateHistoryTests {
    private let folder = TemporaryFolder()

    @Test("Its row is written running at its start and finished at its end, with its package's version and the job's name")
    func addedUpdateHasItsRow() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let recorder = HistoryRecorder(store: store)
        let change = PackageChange(package: "lab-second", action: .install, newVersion: "2.0")
        let added = Update(id: "lab-second", title: "lab-second 2.0", package: change)
        try recorder.record(EngineEvents.queued(EngineEvents.job(1, name: "dpkg -i one.deb two.deb (plan partial: from dpkg's lines)",
                                                                 updates: [Update(id: "lab-first")])))
        try recorder.record(EngineEvents.started(1, at: 1))
        try recorder.record(EngineEvent(time: EngineEvents.time(2), kind: .updateStarted(job: 1, index: 1, updateID: "lab-second", added: added)))
        let running = try #require(try store.entries(updateID: "lab-second").first)
        #expect(running.isRunning && running.newVersion == "2.0")
        try recorder.record(EngineEvents.updateCompleted(
            1, 1, "lab-second", UpdateInstallationResult(resultCode: .succeeded, startedAt: EngineEvents.time(2), endedAt: EngineEvents.time(3)),
            at: 3))
        try recorder.record(EngineEvents.completed(1, [], at: 3))
        let row = try #require(try store.entries(updateID: "lab-second").first)
        #expect(row.resultCode == .succeeded && !row.isRunning && row.title == "lab-second 2.0")
        #expect(row.jobName == "dpkg -i one.deb two.deb (plan partial: from dpkg's lines)")
    }
}
