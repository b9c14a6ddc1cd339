#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import InstallEngine

// MARK: - Job runs and the versions kept for undo

extension HistoryStore {
    /// Inserts a job run that has begun and returns its id (the `JOBRUN` of undo, and the name
    /// of its folder of kept versions).
    /// - Parameters:
    ///   - keptForUndo: an observed transaction whose versions the hooks keep (rule 37).
    ///   - origin: for a package job, who records it, its plan and its dpkg, so that a run whose
    ///     engine dies is settled from dpkg (`recoverInterruptedRuns`); `nil` records none.
    public func reserveJobRun(kind: String, name: String, operation: UpdateOperation, startedAt: Date,
                              observed: Bool = false, keptForUndo: Bool = false, origin: JobRunOrigin? = nil) throws(HistoryError) -> Int64 {
        try write("record a job run in") { db in
            try db.execute(sql: """
                INSERT INTO jobRun (kind, name, operation, startedAt, observed, keptForUndo, writerPID, writerStartTime, writerBootID,
                                    plan, administrativeDirectory, dpkgLog, installRoot)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [kind, name, operation.rawValue, SQLiteDateText.text(startedAt), observed, keptForUndo,
                                  origin?.writer?.pid, origin?.writer?.startTime.map { Int64(bitPattern: $0) }, origin?.writer?.bootID,
                                  origin.map(\.planText), origin?.administrativeDirectory, origin?.dpkgLog, origin?.installRoot])
            return db.lastInsertedRowID
        }
    }

    /// Records the end of run `id`: its job's final name, result and end. A run that undid run
    /// `undoOf` says so, and when it succeeded, that run is marked undone by it, in the same
    /// transaction.
    public func finishJobRun(_ id: Int64, name: String, resultCode: OperationResultCode, endedAt: Date,
                             undoOf: Int64? = nil) throws(HistoryError) {
        try write("record a job run's end in") { db in
            try db.execute(sql: "UPDATE jobRun SET name = ?, resultCode = ?, endedAt = ?, undoOf = ? WHERE id = ?",
                           arguments: [name, resultCode.rawValue, SQLiteDateText.text(endedAt), undoOf, id])
            if let undoOf, resultCode == .succeeded {
                try db.execute(sql: "UPDATE jobRun SET undoneBy = ? WHERE id = ?", arguments: [id, undoOf])
            }
        }
    }

    /// Run `id` with its packages, kept versions and undoability, as `jobRuns` gives it; `nil`
    /// when the history holds no such run. `halfWay` as for `jobRuns`.
    public func jobRun(_ id: Int64, halfWay: (_ administrativeDirectory: String) -> [String: HalfWayPackage] = { _ in [:] },
                       fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
        throws(HistoryError) -> JobRun? {
        let newer = try read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM jobRun WHERE id >= ?", arguments: [id]) ?? 0 }
        return try jobRuns(limit: newer, halfWay: halfWay, fileExists: fileExists).first { $0.id == id }
    }

    /// Records the settled package rows of a run written outside the recorder (an observed
    /// transaction the hooks kept for undo records its packages at its end), in one
    /// transaction.
    public func recordSettledRows(_ entries: [HistoryEntry]) throws(HistoryError) {
        try write(RowWrites(inserted: entries))
    }

    /// Records what was kept for undo (or why not), in one transaction.
    public func recordKept(_ versions: [KeptVersionRecord]) throws(HistoryError) {
        guard !versions.isEmpty else { return }
        try write("record kept versions in") { db in
            for version in versions {
                try db.execute(sql: """
                    INSERT INTO keptVersion (jobRun, package, version, architecture, file, sizeBytes, source, failure,
                                             conffiles, automatic)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [version.jobRun, version.package, version.version, version.architecture, version.file,
                                     version.sizeBytes, version.source, version.failure, version.conffilesText, version.automatic])
            }
        }
    }

    /// The kept versions not pruned yet, oldest run first, each with its run's start.
    public func unprunedKeptVersions() throws(HistoryError) -> [(record: KeptVersionRecord, runStartedAt: Date?)] {
        try read { db in
            try db.fetchAll(sql: """
                SELECT keptVersion.*, jobRun.startedAt AS runStartedAt FROM keptVersion JOIN jobRun ON jobRun.id = keptVersion.jobRun
                WHERE keptVersion.file IS NOT NULL AND keptVersion.prunedAt IS NULL ORDER BY keptVersion.jobRun, keptVersion.id
                """).map { (Self.keptVersion($0), $0["runStartedAt"] as Date?) }
        }
    }

    /// Marks the kept versions `ids` as pruned at `date`: their files are gone.
    public func markPruned(_ ids: [Int64], at date: Date) throws(HistoryError) {
        guard !ids.isEmpty else { return }
        try write("record pruning in") { db in
            for id in ids {
                try db.execute(sql: "UPDATE keptVersion SET prunedAt = ? WHERE id = ?", arguments: [SQLiteDateText.text(date), id])
            }
        }
    }

    /// The newest `limit` job runs, newest first, each with its packages, its kept versions and
    /// whether it can be undone now (`JobRunUndoability`).
    /// - Parameters:
    ///   - halfWay: the packages a tool has half-way now in the database a run recorded (dpkg's
    ///     `/var/lib/dpkg`), by name with the tool's words (`half-configured at 2.0 (iF)`): the
    ///     history cannot read a tool's database, so whoever lists the runs says, and says
    ///     nothing for a database not a tool's it knows. A run naming such a package is not
    ///     undoable, and says what finishes it (the repair of the newest run naming it). Asked
    ///     only of runs that recorded a database (apt's). None by default.
    ///   - fileExists: whether a kept file is still there (tests give their own).
    public func jobRuns(limit: Int = 20, halfWay: (_ administrativeDirectory: String) -> [String: HalfWayPackage] = { _ in [:] },
                        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
        throws(HistoryError) -> [JobRun] {
        let (runs, later, twins, named) = try read { db -> ([JobRun], [Int64: [JobRunPackage]], [Int64: Int64], [Int64: [JobRunPackage]]) in
            var runs = try db.fetchAll(sql: "SELECT * FROM jobRun ORDER BY id DESC LIMIT ?", arguments: [max(0, limit)]).map { row in
                JobRun(id: row["id"], kind: row["kind"], name: row["name"],
                       operation: UpdateOperation(rawValue: row["operation"]) ?? .install,
                       startedAt: row["startedAt"], endedAt: row["endedAt"],
                       resultCode: (row["resultCode"] as Int?).flatMap(OperationResultCode.init(rawValue:)),
                       observed: row["observed"], keptForUndo: row["keptForUndo"], undoneBy: row["undoneBy"], undoOf: row["undoOf"],
                       installRoot: row["installRoot"], administrativeDirectory: row["administrativeDirectory"])
            }
            guard let oldest = runs.last?.id else { return ([], [:], [:], [:]) }
            // Every run from the oldest listed on: the listed ones' packages, and the later
            // runs that changed them again.
            var packages: [Int64: [JobRunPackage]] = [:]
            for row in try db.fetchAll(sql: """
                SELECT jobRun, updateID, packageAction, oldVersion, newVersion, resultCode FROM \(HistoryEntry.databaseTableName)
                WHERE jobRun >= ? AND packageAction IS NOT NULL ORDER BY id
                """, arguments: [oldest]) {
                guard let action = PackageChange.Action(rawValue: row["packageAction"]),
                      let result = OperationResultCode(rawValue: row["resultCode"]) else { continue }
                packages[row["jobRun"], default: []].append(JobRunPackage(
                    name: row["updateID"], action: action, oldVersion: row["oldVersion"], newVersion: row["newVersion"], resultCode: result))
            }
            // An undone run changes nothing any more, and an undo only put back what was there
            // before the run it undid: neither stands in an earlier run's way.
            let undone = Set(try db.fetchValues(Int64.self, sql: "SELECT id FROM jobRun WHERE id >= ? AND (undoneBy IS NOT NULL OR undoOf IS NOT NULL)",
                                                arguments: [oldest]))
            var kept: [Int64: [KeptVersionRecord]] = [:]
            for row in try db.fetchAll(sql: "SELECT * FROM keptVersion WHERE jobRun >= ? ORDER BY id", arguments: [oldest]) {
                let record = Self.keptVersion(row)
                kept[record.jobRun, default: []].append(record)
            }
            var windows: [Int64: ConfirmWindow] = [:]
            for row in try db.fetchAll(sql: "SELECT * FROM confirmWindow WHERE jobRun >= ?", arguments: [oldest]) {
                let window = Self.window(row)
                windows[window.run] = window
            }
            for index in runs.indices {
                runs[index].packages = packages[runs[index].id] ?? []
                runs[index].kept = kept[runs[index].id] ?? []
                runs[index].confirmWindow = windows[runs[index].id]
            }
            let twins = try Self.observedTwins(db, from: oldest)
            return (runs, packages.filter { !undone.contains($0.key) && twins[$0.key] == nil }, twins, packages)
        }
        var halfWayIn: [String: [String: HalfWayPackage]] = [:]
        return runs.map { run in
            var run = run
            if let keeper = twins[run.id] {
                run.notUndoableBecause = "the same transaction as run \(keeper), which kept its versions: undo run \(keeper)"
                return run
            }
            var dpkgHalfWay: [String: HalfWayPackage] = [:]
            if let directory = run.administrativeDirectory {
                dpkgHalfWay = halfWayIn[directory] ?? halfWay(directory)
                halfWayIn[directory] = dpkgHalfWay
            }
            run.notUndoableBecause = JobRunUndoability.reason(for: run, laterChange: { name in
                later.filter { $0.key > run.id && $0.value.contains { $0.name == name && $0.changedTheVersion } }.keys.min()
            }, halfWay: dpkgHalfWay, newestNaming: { name in
                named.filter { $0.value.contains { $0.name == name } }.keys.max() ?? run.id
            }, laterCannotBeUndone: { id in
                guard let later = runs.first(where: { $0.id == id }), later.observed, !later.keptForUndo else { return nil }
                return "observed, not run by installtop: no versions were kept for it"
            }, fileExists: fileExists)
            return run
        }
    }

    /// The newest apt run with a row for any of `packages`: the one whose `installtop apt repair
    /// RUN` finishes them once dpkg left them half-way; `nil` when no run names them.
    public func newestAptRun(naming packages: [String]) throws(HistoryError) -> Int64? {
        guard !packages.isEmpty else { return nil }
        return try read { db in
            try db.fetchValue(Int64.self, sql: """
                SELECT max(jobRun.id) FROM jobRun JOIN \(HistoryEntry.databaseTableName) entry ON entry.jobRun = jobRun.id
                WHERE jobRun.kind = 'apt' AND entry.updateID IN (\(packages.map { _ in "?" }.joined(separator: ",")))
                """, arguments: SQLiteArguments(packages))
        }
    }

    /// Observed runs from `oldest` on that record a transaction a `keptForUndo` run records too
    /// (the hooks kept it and an engine watched it: the same apt process, by pid and start
    /// time), each with that run's id. Such a twin stands in no run's way: the kept run is the
    /// transaction's (rule 37). The keeper is looked for among all runs, also those older than
    /// `oldest`: a listing of one run says what a longer one says of it.
    private static func observedTwins(_ db: SQLiteConnection, from oldest: Int64) throws -> [Int64: Int64] {
        var transactions: [Int64: String] = [:]
        for row in try db.fetchAll(sql: """
            SELECT jobRun, min(observedBy) AS observedBy FROM \(HistoryEntry.databaseTableName)
            WHERE observedBy IS NOT NULL AND (jobRun >= ? OR jobRun IN (SELECT id FROM jobRun WHERE keptForUndo)) GROUP BY jobRun
            """, arguments: [oldest]) {
            guard let initiator = ObservedInitiatorText.initiator(from: row["observedBy"]) else { continue }
            transactions[row["jobRun"]] = "\(initiator.pid) \(initiator.startTicks)"
        }
        let kept = Set(try db.fetchValues(Int64.self, sql: "SELECT id FROM jobRun WHERE keptForUndo"))
        var keeperOf: [String: Int64] = [:]
        for (run, transaction) in transactions where kept.contains(run) { keeperOf[transaction] = run }
        var twins: [Int64: Int64] = [:]
        for (run, transaction) in transactions where !kept.contains(run) {
            if let keeper = keeperOf[transaction] { twins[run] = keeper }
        }
        return twins
    }

    private static func keptVersion(_ row: SQLiteRow) -> KeptVersionRecord {
        KeptVersionRecord(id: row["id"], jobRun: row["jobRun"], package: row["package"], version: row["version"],
                          architecture: row["architecture"], file: row["file"], sizeBytes: row["sizeBytes"], source: row["source"],
                          failure: row["failure"], prunedAt: row["prunedAt"],
                          conffiles: KeptVersionRecord.conffiles(fromText: row["conffiles"]), automatic: row["automatic"])
    }
}
