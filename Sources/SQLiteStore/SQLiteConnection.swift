import CSQLite

/// One connection to an SQLite database file.
///
/// Not for two threads at once (it is opened without SQLite's own mutex): `SQLitePool` gives
/// each connection to one caller at a time. Closed when the last reference goes.
public final class SQLiteConnection {
    /// How a connection may use its file.
    public enum Access: Sendable {
        /// Reads and writes; a missing file is created.
        case readWrite
        /// Reads only; a missing file is an error.
        case readOnly
    }

    let handle: OpaquePointer
    /// The database file.
    public let path: String
    private var cachedStatements: [String: SQLiteStatement] = [:]

    /// Opens `path`. With a `busyTimeout`, a statement that finds the file locked by another
    /// connection (of this process or another) retries for that long before failing with
    /// `SQLITE_BUSY`; without one it fails at once.
    /// - Throws: `SQLiteError` when SQLite cannot open the file. A file that is not a database
    ///   opens, and fails (`SQLITE_NOTADB`) at its first statement.
    public init(path: String, access: Access = .readWrite, busyTimeout: Duration? = nil) throws(SQLiteError) {
        self.path = path
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_NOMUTEX | (access == .readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let error = SQLiteError.last(of: handle, result: result)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        if let busyTimeout {
            let (seconds, attoseconds) = busyTimeout.components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            sqlite3_busy_timeout(handle, Int32(clamping: max(0, milliseconds)))
        }
    }

    deinit {
        cachedStatements.removeAll()
        // `_v2`: should a statement outlive the connection, SQLite closes once it is finalized.
        sqlite3_close_v2(handle)
    }

    // MARK: - Statements

    /// Prepares the one statement `sql` (a trailing `;` and whitespace are allowed).
    /// - Throws: `SQLiteError`, also when `sql` holds no statement or more than one.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        var followedByMore = false
        let result = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let status = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
            followedByMore = tail.map(Self.holdsStatement) ?? false
            return status
        }
        guard result == SQLITE_OK else { throw SQLiteError.last(of: handle, result: result, sql: sql) }
        guard let statement else { throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no statement to prepare", sql: sql) }
        guard !followedByMore else {
            sqlite3_finalize(statement)
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "more than one statement: run it with execute(sql:)", sql: sql)
        }
        return SQLiteStatement(handle: statement, sql: sql)
    }

    /// The statement `sql`, prepared the first time and kept for the connection's life: for
    /// statements run many times.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = cachedStatements[sql] { return statement }
        let statement = try prepare(sql)
        cachedStatements[sql] = statement
        return statement
    }

    /// Runs `sql`, which may hold several statements separated by `;`, binding `arguments` in
    /// order: each statement takes as many as it has parameters.
    /// - Throws: `SQLiteError` of the first statement that fails (those before it stay done:
    ///   run it in a transaction for all or nothing), and `SQLITE_RANGE` when the arguments are
    ///   too few or too many for the statements.
    public func execute(sql: String, arguments: SQLiteArguments = []) throws(SQLiteError) {
        var remaining = arguments.values[...]
        var failure: SQLiteError?
        sql.withCString { text in
            var next: UnsafePointer<CChar>? = text
            while let start = next, Self.holdsStatement(start) {
                var handle: OpaquePointer?
                let result = sqlite3_prepare_v2(self.handle, start, -1, &handle, &next)
                guard result == SQLITE_OK else {
                    failure = SQLiteError.last(of: self.handle, result: result, sql: sql)
                    return
                }
                guard let handle else { continue }
                let statement = SQLiteStatement(handle: handle, sql: String(cString: sqlite3_sql(handle)))
                let taken = remaining.prefix(statement.parameterCount)
                guard taken.count == statement.parameterCount else {
                    failure = SQLiteError(extendedCode: SQLITE_RANGE, message: "too few statement arguments", sql: sql)
                    return
                }
                remaining = remaining.dropFirst(taken.count)
                do throws(SQLiteError) {
                    try statement.execute(arguments: SQLiteArguments(values: Array(taken)))
                } catch {
                    failure = error
                    return
                }
            }
            if failure == nil, !remaining.isEmpty {
                failure = SQLiteError(extendedCode: SQLITE_RANGE, message: "too many statement arguments", sql: sql)
            }
        }
        if let failure { throw failure }
    }

    /// Every row `sql` gives with `arguments`.
    public func fetchAll(sql: String, arguments: SQLiteArguments = []) throws(SQLiteError) -> [SQLiteRow] {
        try prepare(sql).fetchAll(arguments: arguments)
    }

    /// The first row `sql` gives with `arguments`; `nil` when it gives none.
    public func fetchOne(sql: String, arguments: SQLiteArguments = []) throws(SQLiteError) -> SQLiteRow? {
        try prepare(sql).fetchOne(arguments: arguments)
    }

    /// The first column of the first row, as a `T`; `nil` when there is no row, or the value is
    /// NULL or not a `T` (`SELECT max(id)` of an empty table).
    public func fetchValue<T: SQLiteValueConvertible>(_ type: T.Type, sql: String, arguments: SQLiteArguments = []) throws(SQLiteError) -> T? {
        guard let value = try fetchOne(sql: sql, arguments: arguments)?.values.first, !value.isNull else { return nil }
        return T.fromSQLiteValue(value)
    }

    /// The first column of every row, as `T`s.
    /// - Throws: `SQLiteError` (`SQLITE_MISMATCH`) when a value is NULL or not a `T`: a list
    ///   with a value left out would say something else.
    public func fetchValues<T: SQLiteValueConvertible>(_ type: T.Type, sql: String, arguments: SQLiteArguments = []) throws(SQLiteError) -> [T] {
        var values: [T] = []
        for row in try fetchAll(sql: sql, arguments: arguments) {
            let value = row.values.first ?? .null
            guard let converted = T.fromSQLiteValue(value) else {
                throw SQLiteError(extendedCode: SQLITE_MISMATCH, message: "\(value) is not a \(T.self)", sql: sql)
            }
            values.append(converted)
        }
        return values
    }

    // MARK: - State

    /// The rowid of the last row this connection inserted (0 before any).
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many rows the last INSERT, UPDATE or DELETE of this connection changed.
    public var changesCount: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: - Transactions

    /// How a transaction takes its lock.
    public enum TransactionKind: String, Sendable {
        /// Takes a read snapshot at its first read, and the write lock at its first write.
        case deferred = "DEFERRED"
        /// Takes the write lock at once (waiting up to the busy timeout), so its reads and
        /// writes see no other writer's change in between, and it never fails to upgrade.
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it (or the
    /// commit) throws, and its error rethrown.
    public func inTransaction<T>(_ kind: TransactionKind, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
        do {
            let result = try body(self)
            try execute(sql: "COMMIT TRANSACTION")
            return result
        } catch {
            // SQLite may have rolled back already (an I/O error, a full disk); then there is
            // nothing to roll back, and the first error is the one to tell.
            if isInTransaction { try? execute(sql: "ROLLBACK TRANSACTION") }
            throw error
        }
    }

    /// Whether `text` holds anything but whitespace and `;` (what follows the last statement).
    private static func holdsStatement(_ text: UnsafePointer<CChar>) -> Bool {
        var pointer = text
        while pointer.pointee != 0 {
            switch UInt8(bitPattern: pointer.pointee) {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: ";"):
                pointer += 1
            default:
                return true
            }
        }
        return false
    }
}
