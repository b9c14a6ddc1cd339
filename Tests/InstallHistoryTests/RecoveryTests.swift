import Foundation
import SQLiteStore
import InstallEngine
@testable import InstallHistory
import Testing

@Suite("Rule 20: updates interrupted by the death of installtop")
final class RecoveryTests {
    private let folder = TemporaryFolder()
    private let store: HistoryStore

    init() throws {
        store = try HistoryStore(path: folder.file("history.sqlite3"))
    }

    private func running(_ updateID: String, writer: ProcessIdentity?) throws -> HistoryEntry {
        try store.insert(HistoryEntry(
            operation: .install, resultCode: .inProgress, startedAt: EngineEvents.time(0), endedAt: nil,
            updateID: updateID, title: updateID, jobName: "job", writer: writer, isRunning: true))
    }

    @Test func rowsOfDeadWritersBecomeFailedInterruptedAndLiveOnesAreLeftAlone() throws {
        let me = ProcessIdentity.current()
        let finished = try store.insert(HistoryEntry(
            operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(-10),
            endedAt: EngineEvents.time(-9), updateID: "done", title: "done", jobName: "job", durationMs: 1000,
            outputTail: "ok", writer: ProcessIdentity(pid: Int32.max, startTime: 1, bootID: nil)))
        let mine = try running("mine", writer: me)
        var reused = me
        reused.startTime = me.startTime.map { $0 + 1 }
        let reusedPID = try running("reused-pid", writer: reused)
        let gone = try running("gone", writer: ProcessIdentity(pid: Int32.max, startTime: 1, bootID: me.bootID))
        var otherBoot = me
        otherBoot.bootID = "00000000-0000-0000-0000-000000000000"
        let earlierBoot = try running("earlier-boot", writer: otherBoot)
        let unknownWriter = try running("unknown-writer", writer: nil)

        let now = EngineEvents.time(60)
        let recovered = try store.recoverInterruptedEntries(now: now)

        #expect(Set(recovered.map(\.id)) == Set([reusedPID.id, gone.id, earlierBoot.id, unknownWriter.id]))
        let rows = Dictionary(uniqueKeysWithValues: try store.entries(limit: 100).map { ($0.updateID, $0) })
        for id in ["reused-pid", "gone", "earlier-boot", "unknown-writer"] {
            let row = try #require(rows[id])
            #expect(row.isRunning == false)
            #expect(row.resultCode == .failed)
            #expect(row.hResult == .installerFailure)
            #expect(row.reason == "interrupted")
            #expect(row.endedAt == now)
            #expect(row.startedAt == EngineEvents.time(0))
            #expect(row.durationMs == nil)
        }
        #expect(rows["mine"] == mine, "the live writer's row is untouched")
        #expect(rows["done"] == finished, "finished rows are never changed")
        #expect(try store.recoverInterruptedEntries(now: now).isEmpty, "a second pass finds nothing")

        let integrity = try store.pool.read { db in try db.fetchValues(String.self, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
    }

    @Test func aLiveSecondProcessKeepsItsRowsUntilItDies() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["60"]
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
        let identity = try #require(ProcessIdentity.of(pid: child.processIdentifier))
        #expect(identity.pid != ProcessIdentity.current().pid)
        let row = try running("other-process", writer: identity)

        #expect(try store.recoverInterruptedEntries().isEmpty)
        #expect(try store.entries().first == row)

        // SIGKILL: Foundation's Process hands the spawning thread's blocked signals, SIGTERM
        // among them, on to the child, where a SIGTERM would wait unseen.
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        let recovered = try store.recoverInterruptedEntries()
        #expect(recovered.map(\.id) == [row.id])
        #expect(recovered.first?.reason == "interrupted")
    }

    @Test func observedRowsAreSettledAsTheCallerSaysOthersAreInterrupted() throws {
        let gone = ProcessIdentity(pid: Int32.max, startTime: 1, bootID: nil)
        let apt = ObservedInitiator(pid: 812, startTicks: 93_412, program: "apt-get", commandLine: ["apt-get", "install", "lab-a"],
                                    uid: 0, user: "root", terminal: "pts/1", administrativeDirectory: "/x/var/lib/dpkg",
                                    dpkgLog: "/x/var/log/dpkg.log")
        func observed(_ updateID: String) throws -> HistoryEntry {
            try store.insert(HistoryEntry(
                operation: .install, resultCode: .inProgress, startedAt: EngineEvents.time(0), endedAt: nil, updateID: updateID,
                title: updateID, packageAction: .install, newVersion: "1.0", jobName: "apt-get install lab-a — root on pts/1",
                writer: gone, isRunning: true, observedBy: apt))
        }
        let done = try observed("lab-a")
        let broken = try observed("lab-b")
        let underWay = try observed("lab-c")
        let unanswered = try observed("lab-d")
        let ownJob = try running("own", writer: gone)
        #expect(try store.entries(limit: 10).first { $0.id == done.id }?.observedBy == apt, "who ran it, and where, round-trip")

        var asked: [String] = []
        let now = EngineEvents.time(60)
        let recovered = try store.recoverInterruptedEntries(now: now) { rows in
            asked = rows.map(\.updateID).sorted()
            return [
                done.id!: .settled(resultCode: .succeeded, hResult: .ok, reason: "from dpkg's state", endedAt: EngineEvents.time(12)),
                broken.id!: .settled(resultCode: .failed, hResult: .installerFailure, reason: "dpkg shows it not installed", endedAt: nil),
                underWay.id!: .stillRunning,
            ]
        }
        #expect(asked == ["lab-a", "lab-b", "lab-c", "lab-d"], "only observed rows are asked about")
        #expect(Set(recovered.map(\.id)) == Set([done.id, broken.id, unanswered.id, ownJob.id]))
        let rows = Dictionary(uniqueKeysWithValues: try store.entries(limit: 100).map { ($0.updateID, $0) })
        #expect(rows["lab-a"]?.resultCode == .succeeded && rows["lab-a"]?.endedAt == EngineEvents.time(12))
        #expect(rows["lab-a"]?.durationMs == 12_000, "dated by the caller: a duration")
        #expect(rows["lab-b"]?.resultCode == .failed && rows["lab-b"]?.reason == "dpkg shows it not installed" && rows["lab-b"]?.endedAt == now)
        #expect(rows["lab-b"]?.durationMs == nil)
        #expect(rows["lab-c"]?.isRunning == true, "its transaction still runs: left for a later start")
        #expect(rows["lab-d"]?.reason == "interrupted" && rows["own"]?.reason == "interrupted")
        #expect(rows.values.allSatisfy { !$0.isRunning || $0.updateID == "lab-c" })
    }

    @Test func thisProcessIsAliveAndANonexistentPidIsNot() {
        let me = ProcessIdentity.current()
        #expect(me.startTime != nil, "Linux has /proc")
        #expect(me.isAlive)
        #expect(ProcessIdentity.of(pid: Int32.max) == nil)
        #expect(!ProcessIdentity(pid: Int32.max, startTime: nil, bootID: nil).isAlive)
    }
}
