import Foundation
import SQLiteStore
import InstallEngine
@testable import InstallHistory
import Testing

/// Commit-confirmed windows in the history: decided and recorded in one transaction, so that a
/// confirmation and a revert racing each other from two processes' stores have one winner,
/// and the window and its regressions read back in `history --jobs`.
@Suite("Commit-confirmed windows in the history")
final class ConfirmWindowStoreTests {
    private let folder = TemporaryFolder()

    private func armed(deadlineIn seconds: Double, at now: Date) throws -> (HistoryStore, Int64) {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let run = try store.reserveJobRun(kind: "apt", name: "apt upgrade", operation: .install, startedAt: now)
        let regression = HealthRegression(check: "sshd -t", before: "passed", after: "failed: exit status 255")
        try store.armConfirmWindow(ConfirmWindow(run: run, armedAt: now, deadline: now.addingTimeInterval(seconds), regressions: [regression],
                                                 aptConfig: "/lab/apt.conf"),
                                   baseline: [HealthObservation(check: "sshd -t", passed: true)],
                                   checkedAfter: [HealthObservation(check: "sshd -t", passed: false, detail: "exit status 255")])
        return (store, run)
    }

    @Test("Of a confirmation and a revert racing, the first decided wins and the other is refused, either way round")
    func oneWinner() throws {
        let now = Date()
        let (store, run) = try armed(deadlineIn: 60, at: now)
        let other = try HistoryStore(path: folder.file("history.sqlite3"))
        #expect(try other.decide(.confirm, on: run, at: now.addingTimeInterval(10)) == .confirmed)
        guard case .refused(let why) = try store.decide(.revertNow, on: run, at: now.addingTimeInterval(10)) else {
            Issue.record("the revert after the confirmation must be refused")
            return
        }
        #expect(why.contains("confirmed already"), "\(why)")
        #expect(try store.confirmWindow(of: run)?.state == .confirmed)

        let (_, second) = try armed(deadlineIn: 60, at: now)
        // A second past it: the history keeps dates to the millisecond, rounded to the nearest.
        guard case .revert = try store.decide(.revertIfDue, on: second, at: now.addingTimeInterval(61)) else {
            Issue.record("the revert is due at the deadline")
            return
        }
        guard case .refused = try other.decide(.confirm, on: second, at: now.addingTimeInterval(59)) else {
            Issue.record("a confirmation after the revert was claimed loses, whatever its clock says")
            return
        }
        let claimed = try #require(try store.confirmWindow(of: second))
        #expect(claimed.state == .reverting && claimed.reverter?.pid == getpid())
        try store.finishRevert(of: second, reverted: true, reason: "no confirmation", revertRun: 99, at: now.addingTimeInterval(61))
        let runs = try store.jobRuns()
        let settled = try #require(runs.first { $0.id == second }?.confirmWindow)
        #expect(settled.state == .reverted && settled.revertRun == 99 && settled.reason == "no confirmation")
        #expect(settled.regressions == [HealthRegression(check: "sshd -t", before: "passed", after: "failed: exit status 255")])
        #expect(settled.aptConfig == "/lab/apt.conf")
        #expect(try store.openConfirmWindows().isEmpty)
    }

    @Test("Confirmations racing from many threads: exactly one wins")
    func manyRacers() async throws {
        let now = Date()
        let (_, run) = try armed(deadlineIn: 60, at: now)
        let path = folder.file("history.sqlite3")
        let decisions = try await withThrowingTaskGroup(of: ConfirmDecision.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let store = try HistoryStore(path: path)
                    return try store.decide(index % 2 == 0 ? .confirm : .revertNow, on: run, at: now.addingTimeInterval(1))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let winners = decisions.filter { if case .refused = $0 { return false } else { return true } }
        #expect(winners.count == 1, "\(decisions)")
    }

    @Test("A run never armed has nothing to confirm; the JSON of a run carries its window")
    func unarmedAndJSON() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (store, run) = try armed(deadlineIn: 30, at: now)
        let plain = try store.reserveJobRun(kind: "apt", name: "apt install x", operation: .install, startedAt: now)
        guard case .refused(let why) = try store.decide(.confirm, on: plain, at: now) else {
            Issue.record("an unarmed run must be refused")
            return
        }
        #expect(why.contains("was not armed"), "\(why)")
        let line = try JobRunJSON.line(for: try #require(try store.jobRuns().first { $0.id == run }))
        #expect(line.contains(#""confirm":{"armedAt":"2027-01-15T08:00:00.000Z","checkedAgainAt":null,"deadline":"2027-01-15T08:00:30.000Z","decidedAt":null"#),
                "\(line)")
        #expect(line.contains(#""state":"armed""#), "\(line)")
        let plainLine = try JobRunJSON.line(for: try #require(try store.jobRuns().first { $0.id == plain }))
        #expect(plainLine.contains(#""confirm":null"#), "\(plainLine)")
        let table = JobRunTable.render(try store.jobRuns())
        #expect(table.contains("armed: confirm by 2027-01-15 08:00:30 UTC (installtop confirm --run \(run))"), "\(table)")
        #expect(table.contains("regressed: sshd -t: passed → failed: exit status 255"), "\(table)")
        // Where systemd did not run, the job's restarts were not recorded: null, not [].
        #expect(line.contains(#""restartedServices":null"#), "\(line)")
        // Checks never run again: null (above); run again while armed: when, in the JSON as in the table.
        _ = try store.recordChecksAgain(of: run, checkedAfter: [], regressions: [], at: now.addingTimeInterval(20))
        let again = try JobRunJSON.line(for: try #require(try store.jobRuns().first { $0.id == run }))
        #expect(again.contains(#""checkedAgainAt":"2027-01-15T08:00:20.000Z""#), "\(again)")
        #expect(JobRunTable.render(try store.jobRuns()).contains("checks run again at 2027-01-15 08:00:20 UTC"))
    }

    @Test("The services a job restarted are stored with the window (v11) and read back, in the JSON too; none is [] and not recorded nil")
    func restartedServices() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var runs: [Int64] = []
        for services in [["cron.service", "nginx.service"], [], nil] as [[String]?] {
            let run = try store.reserveJobRun(kind: "apt", name: "apt upgrade", operation: .install, startedAt: now)
            try store.armConfirmWindow(ConfirmWindow(run: run, armedAt: now, deadline: now.addingTimeInterval(30), restartedServices: services),
                                       baseline: [], checkedAfter: [])
            runs.append(run)
        }
        #expect(try store.confirmWindow(of: runs[0])?.restartedServices == ["cron.service", "nginx.service"])
        #expect(try store.confirmWindow(of: runs[1])?.restartedServices == [])
        #expect(try store.confirmWindow(of: runs[2])?.restartedServices == nil)
        #expect(try store.openConfirmWindows().sorted { $0.run < $1.run }.map(\.restartedServices) == [["cron.service", "nginx.service"], [], nil])
        let line = try JobRunJSON.line(for: try #require(try store.jobRuns().first { $0.id == runs[0] }))
        #expect(line.contains(#""restartedServices":["cron.service","nginx.service"]"#), "\(line)")
    }

    @Test("A dnf window keeps its tool and root, and says its own revert when due; a window recorded before tools were (NULL) is apt's")
    func toolAndRoot() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let run = try store.reserveJobRun(kind: "dnf", name: "dnf upgrade", operation: .install, startedAt: now)
        try store.armConfirmWindow(ConfirmWindow(run: run, armedAt: now, deadline: now.addingTimeInterval(30), tool: "dnf", installRoot: "/srv/image"),
                                   baseline: [], checkedAfter: [])
        let window = try #require(try store.confirmWindow(of: run))
        #expect(window.tool == "dnf" && window.installRoot == "/srv/image" && window.aptConfig == nil)
        #expect(ConfirmWindowText.line(window, now: now.addingTimeInterval(31)).contains("(installtop dnf revert \(run), "))

        let older = try store.reserveJobRun(kind: "apt", name: "apt upgrade", operation: .install, startedAt: now)
        try store.armConfirmWindow(ConfirmWindow(run: older, armedAt: now, deadline: now.addingTimeInterval(30)), baseline: [], checkedAfter: [])
        let connection = try SQLiteConnection(path: folder.file("history.sqlite3"), busyTimeout: .seconds(5))
        try connection.execute(sql: "UPDATE confirmWindow SET tool = NULL WHERE jobRun = ?", arguments: [older])
        #expect(try store.confirmWindow(of: older)?.tool == "apt")
    }

    @Test("A window recorded expired at once (its run could not be undone) keeps when and why")
    func expiredAtOnce() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let run = try store.reserveJobRun(kind: "dnf", name: "dnf upgrade", operation: .install, startedAt: now)
        try store.armConfirmWindow(ConfirmWindow(run: run, state: .expired, armedAt: now, deadline: now.addingTimeInterval(30), decidedAt: now,
                                                 reason: "not armed: it cannot be undone: no kept version of lab-a", tool: "dnf"),
                                   baseline: [], checkedAfter: [])
        let window = try #require(try store.confirmWindow(of: run))
        #expect(window.state == .expired && window.decidedAt == now && window.reason == "not armed: it cannot be undone: no kept version of lab-a")
    }
}
