#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import InstallEngine

// MARK: - Runs whose engine died mid-transaction

extension HistoryStore {
    /// Ends every package job's run that never recorded its end, whose recorded writer is gone
    /// and that recorded its plan and dpkg (`JobRunOrigin`): apt and dpkg went on without the
    /// engine or died with it, so `settle` says from dpkg's final state and log what became of
    /// each package.
    /// Call it before `recoverInterruptedEntries`, which would take the run's running rows for
    /// interrupted.
    ///
    /// For a settled run, in one transaction: each running row of a package gets `settle`'s
    /// verdict; each package of the plan without a row gets a settled one (the engine died
    /// before dpkg began it); a row that had ended keeps its result, unless it says succeeded
    /// and `settle` says failed: dpkg undid what the engine saw done (its trigger processing cut
    /// off, the package left half-configured), and dpkg's final state is the account that
    /// stands. The run ends with the
    /// result its rows make (rule 16, no abort) at the settlement's end. A run `settle` says is
    /// `stillRunning`, or gives no word on, is left as it is; runs without a writer or a dpkg
    /// (recorded before, or by a hook) are never touched. Safe beside other processes: a run
    /// another one ended meanwhile is not ended again.
    ///
    /// - Returns: the ids of the runs it ended.
    @discardableResult
    public func recoverInterruptedRuns(now: Date = Date(), settle: ([InterruptedRun]) -> [Int64: RunSettlement]) throws(HistoryError) -> [Int64] {
        let runs = try read { db -> [InterruptedRun] in
            try db.fetchAll(sql: """
                SELECT * FROM jobRun WHERE endedAt IS NULL AND writerPID IS NOT NULL
                    AND (administrativeDirectory IS NOT NULL OR installRoot IS NOT NULL)
                """).compactMap { row -> InterruptedRun? in
                let writer = ProcessIdentity(pid: row["writerPID"], startTime: (row["writerStartTime"] as Int64?).map { UInt64(bitPattern: $0) },
                                             bootID: row["writerBootID"])
                guard !writer.isAlive else { return nil }
                let id: Int64 = row["id"]
                let origin = JobRunOrigin(writer: writer, plan: JobRunOrigin.plan(fromText: row["plan"]),
                                          administrativeDirectory: row["administrativeDirectory"], dpkgLog: row["dpkgLog"],
                                          installRoot: row["installRoot"])
                return InterruptedRun(id: id, kind: row["kind"], name: row["name"], operation: UpdateOperation(rawValue: row["operation"]) ?? .install,
                                      startedAt: row["startedAt"], observed: row["observed"], origin: origin,
                                      rows: try Self.entries(db, where: "jobRun = ?", arguments: [id]))
            }
        }
        guard !runs.isEmpty else { return [] }
        let verdicts = settle(runs)
        return try write("settle runs whose engine died in") { db in
            var ended: [Int64] = []
            for run in runs {
                guard case .settled(let packages, let endedAt)? = verdicts[run.id] else { continue }
                // Ended by another process meanwhile: its account stands.
                guard try db.fetchValue(Bool.self, sql: "SELECT endedAt IS NULL FROM jobRun WHERE id = ?", arguments: [run.id]) == true else { continue }
                var codes: [OperationResultCode] = []
                for var row in try Self.entries(db, where: "jobRun = ?", arguments: [run.id]) {
                    if case .settled(let code, let hResult, let reason, let end)? = packages[row.updateID],
                       row.isRunning || (row.resultCode.isSuccess && code == .failed) {
                        Self.settle(&row, code, hResult, reason, end, now: now)
                        _ = try Self.updateRow(row, in: db)
                    }
                    codes.append(row.resultCode)
                }
                let recorded = Set(run.rows.map(\.updateID))
                for change in run.origin.plan where !recorded.contains(change.package) {
                    guard case .settled(let code, let hResult, let reason, let end)? = packages[change.package] else { continue }
                    let row = HistoryEntry(
                        operation: run.operation, resultCode: code, hResult: hResult, reason: reason, startedAt: nil, endedAt: end ?? now,
                        updateID: change.package, title: change.title, packageAction: change.action, oldVersion: change.oldVersion,
                        newVersion: change.newVersion, jobName: run.name, jobRun: run.id)
                    _ = try Self.insertRow(row, in: db)
                    codes.append(code)
                }
                let result = InstallationResult.combining(codes.map { UpdateInstallationResult(resultCode: $0) }, abortRequested: false)
                try db.execute(sql: "UPDATE jobRun SET resultCode = ?, endedAt = ? WHERE id = ? AND endedAt IS NULL",
                               arguments: [codes.isEmpty ? OperationResultCode.aborted.rawValue : result.resultCode.rawValue,
                                           SQLiteDateText.text(endedAt ?? now), run.id])
                ended.append(run.id)
            }
            return ended
        }
    }
}
