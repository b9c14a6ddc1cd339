import SQLiteStore

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
                if entry.id != nil, try Self.updateRow(entry, in: db) { continue }
                _ = try Self.insertRow(entry, in: db)
            }
            return try writes.inserted.map { entry in try Self.insertRow(entry, in: db) }
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

    /// Inserts `entry` (its `id` is not written: SQLite chooses one) and returns the new row's id.
    static func insertRow(_ entry: HistoryEntry, in db: SQLiteConnection) throws -> Int64 {
        try db.cachedStatement(insertSQL).execute(arguments: SQLiteArguments(entry.columnValues))
        return db.lastInsertedRowID
    }

    /// Overwrites every column of the row of `entry.id` with `entry`'s values; false when there
    /// is no such row (nothing is written then).
    static func updateRow(_ entry: HistoryEntry, in db: SQLiteConnection) throws -> Bool {
        try db.cachedStatement(updateSQL).execute(arguments: SQLiteArguments(entry.columnValues + [entry.id]))
        return db.changesCount > 0
    }

    /// The rows `condition` selects (an SQL expression, `?` bound to `arguments`), in `order`.
    static func entries(_ db: SQLiteConnection, where condition: String, arguments: SQLiteArguments = [],
                        orderedBy order: String = "id") throws -> [HistoryEntry] {
        try db.fetchAll(sql: "SELECT * FROM \(HistoryEntry.databaseTableName) WHERE \(condition) ORDER BY \(order)", arguments: arguments)
            .map(HistoryEntry.init(row:))
    }

    // The statements are written once and kept prepared by the connection, so a row's write
    // costs no parsing of SQL.
    private static let insertSQL: String = {
        let columns = HistoryEntry.writtenColumns.map(\.rawValue)
        return "INSERT INTO \(HistoryEntry.databaseTableName) (\(columns.joined(separator: ", "))) "
            + "VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }()

    private static let updateSQL: String = {
        let assignments = HistoryEntry.writtenColumns.map { "\($0.rawValue) = ?" }
        return "UPDATE \(HistoryEntry.databaseTableName) SET \(assignments.joined(separator: ", ")) WHERE id = ?"
    }()
}
