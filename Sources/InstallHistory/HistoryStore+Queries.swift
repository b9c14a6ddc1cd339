import SQLiteStore

// MARK: - Queries (WUA QueryHistory)

extension HistoryStore {
    /// Rows newest first: by start date (settle date for updates that never started), then by
    /// id, so the order is stable. `offset` is zero-based; a page past the end is empty and a
    /// short last page is not an error. Negative `limit` or `offset` count as 0. `updateID`
    /// and `jobName` filter exactly; both may be given.
    public func entries(
        limit: Int = 20, offset: Int = 0, updateID: String? = nil, jobName: String? = nil
    ) throws(HistoryError) -> [HistoryEntry] {
        let request = Self.page(limit: limit, offset: offset, updateID: updateID, jobName: jobName)
        return try read { db in try db.fetchAll(sql: request.sql, arguments: request.arguments).map(HistoryEntry.init(row:)) }
    }

    /// The query behind `entries`, separate so tests can check SQLite's plan for it.
    static func page(limit: Int, offset: Int, updateID: String?, jobName: String?) -> (sql: String, arguments: SQLiteArguments) {
        let (condition, arguments) = filter(updateID: updateID, jobName: jobName)
        return ("SELECT * FROM \(HistoryEntry.databaseTableName)\(condition) ORDER BY \(HistorySchema.dateExpression) DESC, id DESC"
                    + " LIMIT \(max(0, limit)) OFFSET \(max(0, offset))", arguments)
    }

    /// How many rows match the filters (running rows included).
    public func count(updateID: String? = nil, jobName: String? = nil) throws(HistoryError) -> Int {
        let (condition, arguments) = Self.filter(updateID: updateID, jobName: jobName)
        return try read { db in
            try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(HistoryEntry.databaseTableName)\(condition)", arguments: arguments) ?? 0
        }
    }

    /// The median duration of the succeeded runs of `updateID` (the mean of the two middle
    /// ones for an even count), for ETAs; `nil` when it never succeeded. Runs that succeeded
    /// with errors, failed or were aborted are left out: their durations say little about the
    /// next run.
    public func medianDuration(updateID: String) throws(HistoryError) -> Duration? {
        let middle: [Int64] = try read { db in
            let count = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(Self.succeededRuns)", arguments: [updateID]) ?? 0
            guard count > 0 else { return [] }
            return try db.fetchValues(
                Int64.self, sql: "SELECT durationMs FROM \(Self.succeededRuns) ORDER BY durationMs LIMIT ? OFFSET ?",
                arguments: [updateID, 2 - count % 2, (count - 1) / 2])
        }
        guard !middle.isEmpty else { return nil }
        let sum = middle.reduce(0, +)
        return .milliseconds(sum / Int64(middle.count))
    }

    /// The succeeded runs of the update bound to `?`, spelled like the partial index
    /// `historyEntry_succeededDurations` so SQLite reads only that index.
    static let succeededRuns =
        "\(HistoryEntry.databaseTableName) WHERE updateID = ? AND resultCode = 2 AND durationMs IS NOT NULL"

    /// The `WHERE` clause (with its leading space; empty without filters) and its arguments.
    private static func filter(updateID: String?, jobName: String?) -> (condition: String, arguments: SQLiteArguments) {
        var conditions: [String] = []
        var arguments: [String] = []
        if let updateID {
            conditions.append("updateID = ?")
            arguments.append(updateID)
        }
        if let jobName {
            conditions.append("jobName = ?")
            arguments.append(jobName)
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), SQLiteArguments(arguments))
    }
}
