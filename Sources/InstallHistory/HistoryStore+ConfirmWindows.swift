#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

// MARK: - Commit-confirmed runs (Documentation/COMMIT-CONFIRMED.md)

extension HistoryStore {
    /// Records run `run` armed: it waits for a confirmation until `deadline`, with the checks
    /// before and after its job and what regressed between them.
    public func armConfirmWindow(_ window: ConfirmWindow, baseline: [HealthObservation], checkedAfter: [HealthObservation])
        throws(HistoryError) {
        try write("record a confirmation window in") { db in
            try db.execute(sql: """
                INSERT INTO confirmWindow (jobRun, state, armedAt, deadline, revertOnRegression, baseline, checkedAfter, regressions,
                                           decidedAt, reason, aptConfig, chroot, tool, installRoot, restartedServices, checks,
                                           checksDirectory, checkedAgainAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [window.run, window.state.rawValue, SQLiteDateText.text(window.armedAt),
                                  SQLiteDateText.text(window.deadline), window.revertOnRegression, Self.json(baseline),
                                  Self.json(checkedAfter), Self.json(window.regressions), window.decidedAt.map { SQLiteDateText.text($0) },
                                  window.reason, window.aptConfig, window.chroot, window.tool, window.installRoot,
                                  window.restartedServices.map { Self.json($0) }, window.checks.map { Self.json($0) },
                                  window.checksDirectory, window.checkedAgainAt.map { SQLiteDateText.text($0) }])
        }
    }

    /// Run `run`'s window; `nil` when it was never armed.
    public func confirmWindow(of run: Int64) throws(HistoryError) -> ConfirmWindow? {
        try read { db in try db.fetchOne(sql: "SELECT * FROM confirmWindow WHERE jobRun = ?", arguments: [run]).map(Self.window) }
    }

    /// Run `run`'s window and the checks before its job (its baseline, empty when not
    /// recorded); `nil` when it was never armed.
    public func confirmWindowAndBaseline(of run: Int64) throws(HistoryError) -> (window: ConfirmWindow, baseline: [HealthObservation])? {
        try read { db in
            try db.fetchOne(sql: "SELECT * FROM confirmWindow WHERE jobRun = ?", arguments: [run]).map { row in
                (Self.window(row), (row["baseline"] as String?).flatMap { try? JSONDecoder().decode([HealthObservation].self, from: Data($0.utf8)) } ?? [])
            }
        }
    }

    /// Records what run `run`'s checks said when they were run again at `date` (a patch
    /// night's host after its reboot): `checkedAfter` becomes the window's after, and each of
    /// `regressions` (against the baseline) it does not list yet is added to its regressions,
    /// which keep what regressed after the job. Recorded only while the window is armed, in one
    /// write transaction, so a confirmation or a revert decided meanwhile stands.
    /// - Returns: the window as recorded, or `nil` with the window as it is when it is no
    ///   longer armed (or was never: `nil, nil`).
    public func recordChecksAgain(of run: Int64, checkedAfter: [HealthObservation], regressions: [HealthRegression], at date: Date = Date())
        throws(HistoryError) -> (recorded: ConfirmWindow?, current: ConfirmWindow?) {
        try write("record checks run again in") { db in
            guard var window = try db.fetchOne(sql: "SELECT * FROM confirmWindow WHERE jobRun = ?", arguments: [run]).map(Self.window)
            else { return (nil, nil) }
            guard window.state == .armed else { return (nil, window) }
            window.regressions += regressions.filter { !window.regressions.contains($0) }
            window.checkedAgainAt = date
            try db.execute(sql: "UPDATE confirmWindow SET checkedAfter = ?, regressions = ?, checkedAgainAt = ? WHERE jobRun = ?",
                           arguments: [Self.json(checkedAfter), Self.json(window.regressions), SQLiteDateText.text(date), run])
            return (window, window)
        }
    }

    /// The windows still open (armed, or being reverted), soonest deadline first: what the
    /// engine watches.
    public func openConfirmWindows() throws(HistoryError) -> [ConfirmWindow] {
        try read { db in
            try db.fetchAll(sql: "SELECT * FROM confirmWindow WHERE state IN ('armed', 'reverting') ORDER BY deadline")
                .map(Self.window)
        }
    }

    /// Every window still open and those armed or decided since `since`, newest armed first,
    /// each with its run's name: what an engine watches and tells its clients (`ArmedRuns`) in
    /// one read.
    public func recentConfirmWindows(since: Date) throws(HistoryError) -> [(window: ConfirmWindow, name: String)] {
        try read { db in
            try db.fetchAll(sql: """
                SELECT confirmWindow.*, jobRun.name AS runName FROM confirmWindow JOIN jobRun ON jobRun.id = confirmWindow.jobRun
                WHERE confirmWindow.state IN ('armed', 'reverting') OR confirmWindow.armedAt >= ? OR confirmWindow.decidedAt >= ?
                ORDER BY confirmWindow.armedAt DESC, confirmWindow.jobRun DESC
                """, arguments: [SQLiteDateText.text(since), SQLiteDateText.text(since)])
                .map { (Self.window($0), $0["runName"] as String? ?? "") }
        }
    }

    /// Decides `action` on run `run`'s window at `now` (`ConfirmWindowRules`) and records the
    /// decision in the same write transaction: of a confirmation and a revert that race, the
    /// one SQLite lets write first is decided on the window as it was, and the other on the
    /// window it left. A revert decision makes this process the window's reverter.
    /// - Returns: `.refused` when the run was never armed.
    public func decide(_ action: ConfirmAction, on run: Int64, at now: Date = Date(),
                       isAlive: @Sendable (ProcessIdentity) -> Bool = { $0.isAlive }) throws(HistoryError) -> ConfirmDecision {
        let me = ProcessIdentity.current()
        return try write("record a confirmation in") { db in
            guard let window = try db.fetchOne(sql: "SELECT * FROM confirmWindow WHERE jobRun = ?", arguments: [run]).map(Self.window)
            else { return .refused("run \(run) was not armed (no --confirm): there is nothing to confirm") }
            let alive = window.reverter.map(isAlive) ?? false
            let decision = ConfirmWindowRules.decide(action, on: window, at: now, reverterAlive: alive)
            let when = SQLiteDateText.text(now)
            switch decision {
            case .confirmed:
                try db.execute(sql: "UPDATE confirmWindow SET state = 'confirmed', decidedAt = ?, reason = ? WHERE jobRun = ?",
                               arguments: [when, "confirmed before its deadline", run])
            case .extended(let deadline):
                try db.execute(sql: "UPDATE confirmWindow SET deadline = ? WHERE jobRun = ?", arguments: [SQLiteDateText.text(deadline), run])
            case .revert(let reason):
                try db.execute(sql: """
                    UPDATE confirmWindow SET state = 'reverting', decidedAt = ?, reason = ?, reverterPID = ?, reverterStartTime = ?,
                                             reverterBootID = ? WHERE jobRun = ?
                    """, arguments: [when, reason, me.pid, me.startTime.map { Int64(bitPattern: $0) }, me.bootID, run])
            case .wait, .refused:
                break
            }
            return decision
        }
    }

    /// Records the end of run `run`'s revert: `reverted` when its undo put the run back (the
    /// undo's run `revertRun`), `expired` otherwise, with `reason` (why it was reverted, or why
    /// the undo could not be done).
    public func finishRevert(of run: Int64, reverted: Bool, reason: String, revertRun: Int64?, at date: Date = Date()) throws(HistoryError) {
        try write("record a revert in") { db in
            try db.execute(sql: """
                UPDATE confirmWindow SET state = ?, reason = ?, revertRun = ?, decidedAt = ?, reverterPID = NULL,
                                         reverterStartTime = NULL, reverterBootID = NULL WHERE jobRun = ?
                """, arguments: [(reverted ? ConfirmWindowState.reverted : .expired).rawValue, reason, revertRun,
                                  SQLiteDateText.text(date), run])
        }
    }

    /// The newest run after `after` that process `pid` records: the run a job of this
    /// process just made.
    public func newestRun(after: Int64, recordedBy pid: Int32) throws(HistoryError) -> Int64? {
        try read { db in
            try db.fetchValue(Int64.self, sql: "SELECT max(id) FROM jobRun WHERE id > ? AND writerPID = ?", arguments: [after, pid])
        }
    }

    /// The newest run's id, 0 when there is none.
    public func newestRunID() throws(HistoryError) -> Int64 {
        try read { db in try db.fetchValue(Int64.self, sql: "SELECT max(id) FROM jobRun") ?? 0 }
    }

    static func window(_ row: SQLiteRow) -> ConfirmWindow {
        let reverter: ProcessIdentity? = (row["reverterPID"] as Int32?).map { pid in
            ProcessIdentity(pid: pid, startTime: (row["reverterStartTime"] as Int64?).map { UInt64(bitPattern: $0) },
                            bootID: row["reverterBootID"])
        }
        let regressions = (row["regressions"] as String?).flatMap { try? JSONDecoder().decode([HealthRegression].self, from: Data($0.utf8)) }
        let restartedServices = (row["restartedServices"] as String?).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        return ConfirmWindow(run: row["jobRun"], state: ConfirmWindowState(rawValue: row["state"]) ?? .expired, armedAt: row["armedAt"],
                             deadline: row["deadline"], revertOnRegression: row["revertOnRegression"], regressions: regressions ?? [],
                             decidedAt: row["decidedAt"], reason: row["reason"], revertRun: row["revertRun"],
                             tool: (row["tool"] as String?) ?? "apt", aptConfig: row["aptConfig"], chroot: row["chroot"], installRoot: row["installRoot"],
                             reverter: reverter, restartedServices: restartedServices,
                             checks: (row["checks"] as String?).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) },
                             checksDirectory: row["checksDirectory"], checkedAgainAt: row["checkedAgainAt"])
    }

    private static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}
