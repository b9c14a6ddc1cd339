import GRDB

// MARK: - Writing rows

extension HistoryStore {
    /// What one write transaction of the recorder does: settle finished rows, then insert
    /// running ones.
    struct RowWrites: Sendable {
        /// Rows to overwrite by id; one without an id, or whose row is missing, is inserted.
        var settled: [HistoryEntry] = []
        /// Rows to insert.
        var inserted: [HistoryEntry] = []

        var isEmpty: Bool { settled.isEmpty && inserted.isEmpty }
    }

    /// Performs `writes` as one transaction: all of them or none. Returns the ids of the
    /// inserted rows, in order.
    @discardableResult
    func write(_ writes: RowWrites) throws(HistoryError) -> [Int64] {
        guard !writes.isEmpty else { return [] }
        return try write("write to") { db in
            for entry in writes.settled {
                let values = entry.columnValues
                if let id = entry.id {
                    try Self.updateStatement(db).execute(arguments: StatementArguments(values + [id]))
                    if db.changesCount > 0 { continue }
                }
                try Self.insertStatement(db).execute(arguments: StatementArguments(values))
            }
            var ids: [Int64] = []
            for entry in writes.inserted {
                try Self.insertStatement(db).execute(arguments: StatementArguments(entry.columnValues))
                ids.append(db.lastInsertedRowID)
            }
            return ids
        }
    }

    /// Inserts `entry` and returns it with its new id.
    func insert(_ entry: HistoryEntry) throws(HistoryError) -> HistoryEntry {
        var entry = entry
        entry.id = try write(RowWrites(inserted: [entry])).first
        return entry
    }

    /// Overwrites the row of `entry.id` with `entry`, or inserts it when there is no such row
    /// (or no id): the final result wins even if the running row could not be written.
    func save(_ entry: HistoryEntry) throws(HistoryError) {
        try write(RowWrites(settled: [entry]))
    }

    // The statements are written once and kept prepared by the connection; GRDB's record
    // methods would encode every row through Codable and a DateFormatter instead.
    private static let insertSQL: String = {
        let columns = HistoryEntry.writtenColumns.map(\.rawValue)
        return "INSERT INTO \(HistoryEntry.databaseTableName) (\(columns.joined(separator: ", "))) "
            + "VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }()

    private static let updateSQL: String = {
        let assignments = HistoryEntry.writtenColumns.map { "\($0.rawValue) = ?" }
        return "UPDATE \(HistoryEntry.databaseTableName) SET \(assignments.joined(separator: ", ")) WHERE id = ?"
    }()

    private static func insertStatement(_ db: Database) throws -> Statement {
        try db.cachedStatement(sql: insertSQL)
    }

    private static func updateStatement(_ db: Database) throws -> Statement {
        try db.cachedStatement(sql: updateSQL)
    }
}
