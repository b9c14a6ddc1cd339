import Foundation
import InstallEngine
@testable import InstallHistory
import Testing

/// A package job's run whose engine died mid-transaction (issue 43, item 2): whoever opens the
/// history next ends it from what dpkg says, with a row for every package of its plan.
@Suite("Runs whose engine died are ended from dpkg")
final class RunRecoveryTests {
    private let folder = TemporaryFolder()
    private let store: HistoryStore
    private let plan = [
        PackageChange(package: "lab-a", action: .upgrade, oldVersion: "1.0", newVersion: "2.0"),
        PackageChange(package: "lab-b", action: .upgrade, oldVersion: "1.0", newVersion: "2.0"),
        PackageChange(package: "lab-c", action: .install, newVersion: "2.0"),
    ]
    private let dead = ProcessIdentity(pid: Int32.max, startTime: 1, bootID: ProcessIdentity.current().bootID)

    init() throws {
        store = try HistoryStore(path: folder.file("history.sqlite3"))
    }

    private func run(writer: ProcessIdentity, dpkg: String? = "/root/var/lib/dpkg") throws -> Int64 {
        try store.reserveJobRun(kind: "apt", name: "apt upgrade", operation: .install, startedAt: EngineEvents.time(0),
                                origin: JobRunOrigin(writer: writer, plan: plan, administrativeDirectory: dpkg, dpkgLog: "/root/var/log/dpkg.log"))
    }

    private func row(_ change: PackageChange, run: Int64, running: Bool, writer: ProcessIdentity) throws {
        try store.recordSettledRows([HistoryEntry(
            operation: .install, resultCode: running ? .inProgress : .succeeded, startedAt: EngineEvents.time(1),
            endedAt: running ? nil : EngineEvents.time(2), updateID: change.package, title: change.title, packageAction: change.action,
            oldVersion: change.oldVersion, newVersion: change.newVersion, jobName: "apt upgrade", writer: writer, isRunning: running,
            jobRun: run)])
    }

    @Test("The engine died during lab-b: lab-a keeps its result, lab-b is settled, lab-c gets a row; the run ends with their result")
    func settledFromDpkg() throws {
        let id = try run(writer: dead)
        try row(plan[0], run: id, running: false, writer: dead)
        try row(plan[1], run: id, running: true, writer: dead)
        let end = EngineEvents.time(30)
        var handed: [InterruptedRun] = []
        let ended = try store.recoverInterruptedRuns(now: EngineEvents.time(60)) { runs in
            handed = runs
            return [id: .settled(packages: [
                "lab-a": .settled(resultCode: .succeeded, hResult: .ok, reason: "not to be used: it had ended", endedAt: nil),
                "lab-b": .settled(resultCode: .succeeded, hResult: .ok, reason: "from dpkg's state: installed at 2.0", endedAt: end),
                "lab-c": .settled(resultCode: .succeeded, hResult: .ok, reason: "from dpkg's state: installed at 2.0", endedAt: end),
            ], endedAt: end)]
        }
        #expect(ended == [id])
        #expect(handed.map(\.origin.plan) == [plan] && handed.first?.origin.administrativeDirectory == "/root/var/lib/dpkg")
        let rows = try store.entries(limit: 10).sorted { $0.updateID < $1.updateID }
        #expect(rows.map(\.updateID) == ["lab-a", "lab-b", "lab-c"])
        #expect(rows.map(\.resultCode) == [.succeeded, .succeeded, .succeeded], "\(rows)")
        #expect(rows[0].reason == nil && rows[0].endedAt == EngineEvents.time(2), "an ended row that dpkg agrees with keeps its account")
        #expect(rows.allSatisfy { !$0.isRunning && $0.jobRun == id })
        #expect(rows[2].title == "lab-c 2.0" && rows[2].newVersion == "2.0" && rows[2].packageAction == .install)
        let recorded = try #require(try store.jobRun(id, fileExists: { _ in true }))
        #expect(recorded.resultCode == .succeeded && recorded.endedAt == end, "\(recorded)")
        #expect(recorded.packages.count == 3)
        // Once ended, a later look leaves it alone.
        #expect(try store.recoverInterruptedRuns { _ in Issue.record("asked again"); return [:] }.isEmpty)
    }

    @Test("An ended row dpkg undid (recorded succeeded, dpkg's final state half-configured: its trigger processing cut off) takes dpkg's verdict; a failed one is never made succeeded")
    func dpkgsFinalStateStands() throws {
        let id = try run(writer: dead)
        try row(plan[0], run: id, running: false, writer: dead)
        try store.recordSettledRows([HistoryEntry(
            operation: .install, resultCode: .failed, hResult: .installerFailure, reason: "its postinst failed", startedAt: EngineEvents.time(1),
            endedAt: EngineEvents.time(2), updateID: "lab-b", title: plan[1].title, packageAction: .upgrade, oldVersion: "1.0", newVersion: "2.0",
            jobName: "apt upgrade", writer: dead, isRunning: false, jobRun: id)])
        let end = EngineEvents.time(30)
        try store.recoverInterruptedRuns(now: EngineEvents.time(60)) { _ in
            [id: .settled(packages: [
                "lab-a": .settled(resultCode: .failed, hResult: .installerFailure, reason: "from dpkg's state: half-configured at 2.0 (iF)", endedAt: end),
                "lab-b": .settled(resultCode: .succeeded, hResult: .ok, reason: "from dpkg's state: installed at 2.0", endedAt: end),
                "lab-c": .settled(resultCode: .aborted, hResult: .callCancelled, reason: "not started", endedAt: end),
            ], endedAt: end)]
        }
        let rows = try store.entries(limit: 10).sorted { $0.updateID < $1.updateID }
        #expect(rows.map(\.resultCode) == [.failed, .failed, .aborted], "\(rows)")
        #expect(rows[0].reason == "from dpkg's state: half-configured at 2.0 (iF)")
        #expect(rows[1].reason == "its postinst failed", "the failure recorded stands")
        // Rule 16 on the rows as they stand now: not every one failed.
        #expect(try store.jobRun(id, fileExists: { _ in true })?.resultCode == .succeededWithErrors)
    }

    @Test("A run whose engine lives, one still running at dpkg, one with no dpkg recorded: none is touched")
    func leftAlone() throws {
        let live = try run(writer: .current())
        let busy = try run(writer: dead)
        let unknown = try run(writer: dead, dpkg: nil)
        var asked: [Int64] = []
        let ended = try store.recoverInterruptedRuns { runs in
            asked = runs.map(\.id)
            return [busy: .stillRunning]
        }
        #expect(ended.isEmpty && asked == [busy], "\(asked)")
        for id in [live, busy, unknown] {
            #expect(try store.jobRun(id, fileExists: { _ in true })?.endedAt == nil)
        }
    }

    @Test("The plan is kept as JSON and read back")
    func planText() {
        let origin = JobRunOrigin(writer: nil, plan: plan, administrativeDirectory: nil, dpkgLog: nil)
        #expect(JobRunOrigin.plan(fromText: origin.planText) == plan)
        #expect(JobRunOrigin.plan(fromText: "not json").isEmpty && JobRunOrigin.plan(fromText: nil).isEmpty)
    }
}
