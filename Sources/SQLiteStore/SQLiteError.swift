import CSQLite

/// An error SQLite reported, with its result code and its own message.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite's extended result code (`SQLITE_BUSY_SNAPSHOT` rather than `SQLITE_BUSY`).
    public let extendedCode: Int32
    /// SQLite's message (`database is locked`, `no such table: x`), as `sqlite3_errmsg` gave it.
    public let message: String
    /// The statement that failed, when one did.
    public let sql: String?

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …): the extended code's low byte.
    public var code: Int32 { extendedCode & 0xFF }

    /// `SQLite error 5: database is locked`, and the statement when one failed.
    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " - while executing `\($0)`" } ?? "")
    }

    /// The error `connection` holds now (after a call returned `result`), while running `sql`.
    static func last(of connection: OpaquePointer?, result: Int32, sql: String? = nil) -> SQLiteError {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? result
        // The connection's code is the last call's; a code of another family means the call
        // failed before SQLite recorded it, and the result itself is the better account.
        let code = extended & 0xFF == result & 0xFF ? extended : result
        let message = connection.flatMap { sqlite3_errmsg($0).map { String(cString: $0) } }
            ?? sqlite3_errstr(result).map { String(cString: $0) } ?? "unknown error"
        return SQLiteError(extendedCode: code, message: message, sql: sql)
    }
}
