import CSQLite

/// One prepared statement of a connection: bound, stepped and reset for each use.
///
/// Used by one thread at a time, like its connection, and never after the connection is closed.
public final class SQLiteStatement {
    let handle: OpaquePointer
    /// The statement's SQL, as prepared.
    public let sql: String
    /// How many values `execute` and the fetches want.
    public let parameterCount: Int
    private let columns: SQLiteColumnNames

    /// SQLite copies a bound text or blob at once, so the Swift buffer may go away after the call.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
        parameterCount = Int(sqlite3_bind_parameter_count(handle))
        let count = Int(sqlite3_column_count(handle))
        columns = SQLiteColumnNames((0..<count).map { String(cString: sqlite3_column_name(handle, Int32($0))) })
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Runs the statement to its end with `arguments`, ignoring any rows.
    /// - Throws: `SQLiteError` (`SQLITE_RANGE` when the arguments' count is not the statement's).
    public func execute(arguments: SQLiteArguments = []) throws(SQLiteError) {
        try bind(arguments)
        defer { reset() }
        while try step() {}
    }

    /// Every row the statement gives with `arguments`.
    public func fetchAll(arguments: SQLiteArguments = []) throws(SQLiteError) -> [SQLiteRow] {
        try bind(arguments)
        defer { reset() }
        var rows: [SQLiteRow] = []
        while try step() { rows.append(currentRow()) }
        return rows
    }

    /// The first row the statement gives with `arguments`, `nil` when it gives none; the
    /// statement is not run further.
    public func fetchOne(arguments: SQLiteArguments = []) throws(SQLiteError) -> SQLiteRow? {
        try bind(arguments)
        defer { reset() }
        return try step() ? currentRow() : nil
    }

    private func bind(_ arguments: SQLiteArguments) throws(SQLiteError) {
        guard arguments.values.count == parameterCount else {
            throw SQLiteError(extendedCode: SQLITE_RANGE,
                              message: "wrong number of statement arguments: \(arguments.values.count) for \(parameterCount) parameters",
                              sql: sql)
        }
        sqlite3_reset(handle)
        for (offset, value) in arguments.values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .null:
                result = sqlite3_bind_null(handle, index)
            case .integer(let integer):
                result = sqlite3_bind_int64(handle, index, integer)
            case .real(let real):
                result = sqlite3_bind_double(handle, index, real)
            case .text(let text):
                result = text.withCString { sqlite3_bind_text(handle, index, $0, Int32(text.utf8.count), Self.transient) }
            case .blob(let bytes):
                result = bytes.isEmpty
                    ? sqlite3_bind_zeroblob(handle, index, 0)
                    : bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            guard result == SQLITE_OK else { throw SQLiteError.last(of: sqlite3_db_handle(handle), result: result, sql: sql) }
        }
    }

    /// Steps once: true when a row is ready, false when the statement is done.
    private func step() throws(SQLiteError) -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError.last(of: sqlite3_db_handle(handle), result: result, sql: sql)
        }
    }

    /// Clears the bindings too, so a large text bound last is not kept alive by a cached statement.
    private func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    private func currentRow() -> SQLiteRow {
        SQLiteRow(columns: columns, values: (0..<Int32(columns.names.count)).map(value(at:)))
    }

    private func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }
}
