import Synchronization

/// A database in WAL mode shared by the threads of a process, as GRDB's `DatabasePool` shared
/// it: one writer connection, and reader connections that read while it writes.
///
/// Writes are serialized in the process by the writer's lock and across processes by SQLite's
/// (each is one `BEGIN IMMEDIATE` transaction, which waits up to the busy timeout for another
/// process's). A read sees one snapshot of the file for its whole body, unaffected by writes
/// that commit meanwhile. The journal mode stays WAL in the file, so every process opening it
/// later, with this pool or not, reads beside the writer.
public final class SQLitePool: Sendable {
    /// The database file.
    public let path: String
    private let writer: LockedConnection
    private let readers: Mutex<[LockedConnection]>
    private let busyTimeout: Duration
    private let maximumReaderCount: Int
    private let prepareConnection: @Sendable (SQLiteConnection) throws -> Void

    /// Opens `path` (created when missing) and switches it to WAL mode.
    /// - Parameters:
    ///   - busyTimeout: how long a statement waits for a lock another connection holds.
    ///   - maximumReaderCount: reads beyond this many at once wait for one to end.
    ///   - prepareConnection: run on every connection as it opens (pragmas), the writer first.
    /// - Throws: `SQLiteError` when the file cannot be opened, is not a database (`SQLITE_NOTADB`),
    ///   or cannot be put in WAL mode; or what `prepareConnection` throws.
    public init(path: String, busyTimeout: Duration, maximumReaderCount: Int = 5,
                prepareConnection: @escaping @Sendable (SQLiteConnection) throws -> Void = { _ in }) throws {
        self.path = path
        self.busyTimeout = busyTimeout
        self.maximumReaderCount = max(1, maximumReaderCount)
        self.prepareConnection = prepareConnection
        let connection = try SQLiteConnection(path: path, access: .readWrite, busyTimeout: busyTimeout)
        try connection.execute(sql: "PRAGMA foreign_keys = ON")
        try prepareConnection(connection)
        let mode = try connection.fetchValue(String.self, sql: "PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(extendedCode: 1, message: "could not use WAL mode (journal mode \(mode ?? "unknown"))", sql: "PRAGMA journal_mode = WAL")
        }
        writer = LockedConnection(connection)
        readers = Mutex([])
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`): committed when it returns,
    /// rolled back when it throws. Waits for this process's other writes, and up to the busy
    /// timeout for another process's.
    /// - Throws: what `body` throws, or `SQLiteError` (`SQLITE_BUSY` once the timeout passed).
    public func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withConnection { connection in try connection.inTransaction(.immediate, body) }
    }

    /// Runs `body` on the writer outside any transaction, for what manages its own
    /// transactions (`SQLiteMigrator`), or must run outside one (`VACUUM`).
    public func writeWithoutTransaction<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withConnection(body)
    }

    /// Runs `body` in a read transaction on a reader connection: one snapshot for all of it,
    /// while the writer (of any process) goes on writing. `body` must not write: the reader is
    /// opened read-only, and a write throws `SQLITE_READONLY`.
    public func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let reader = try availableReader()
        return try reader.withReservedConnection { connection in try connection.inTransaction(.deferred, body) }
    }

    /// A reader no read is using, a new one while there are fewer than the maximum, or else
    /// any reader (whose lock the caller then waits for); reserved for the caller.
    private func availableReader() throws -> LockedConnection {
        let reader = try readers.withLock { readers in
            if let idle = readers.first(where: { !$0.isBusy }) {
                idle.reserve()
                return idle
            }
            guard readers.count < maximumReaderCount else {
                let any = readers[Int.random(in: 0..<readers.count)]
                any.reserve()
                return any
            }
            let connection = try SQLiteConnection(path: path, access: .readOnly, busyTimeout: busyTimeout)
            try connection.execute(sql: "PRAGMA foreign_keys = ON")
            try prepareConnection(connection)
            let reader = LockedConnection(connection)
            reader.reserve()
            readers.append(reader)
            return reader
        }
        return reader
    }
}
