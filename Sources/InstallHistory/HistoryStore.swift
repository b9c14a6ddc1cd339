#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import SQLiteStore
import TextBasics

/// The install history: one SQLite file in WAL mode, shared safely by every installtop
/// process that opens it (rules 19 and 20).
///
/// Several processes may write at once: each write is one short IMMEDIATE transaction, and a
/// writer that finds the file locked waits up to `busyTimeout` instead of failing with
/// "database is locked"; opening (which may create the file and its schema) is serialized
/// across processes by `FolderLock`. Rows are never deleted; a running row is settled by its
/// writer or, if that writer died, by `recoverInterruptedEntries()`.
public final class HistoryStore: Sendable {
    /// The database file.
    public let path: String
    let pool: SQLitePool

    /// How long a write waits for another process's transaction before failing.
    public static let busyTimeout: Duration = .seconds(5)

    /// The `reason` of rows whose writer died while their update ran.
    public static let interruptedReason = "interrupted"

    // MARK: - Opening

    /// Opens the history at `path`, bringing its schema up to date.
    ///
    /// With `createIfMissing` (the default) a missing file is created with mode 0600, and so are
    /// its missing parent folders, with mode 0700, since the output tails may hold anything an
    /// installer printed (SQLite gives the `-wal` and `-shm` files the database's mode). Without it a missing file throws `missingDatabase` and nothing is created.
    /// A file that is not a database, is corrupt or cannot be written throws
    /// `unusableDatabase`, and so does another process opening it for over 10 s.
    public init(path: String, createIfMissing: Bool = true) throws(HistoryError) {
        self.path = path
        let creating = !FileManager.default.fileExists(atPath: path)
        if creating {
            guard createIfMissing else { throw .missingDatabase(path: path) }
            try Self.createParentFolder(of: path)
        }
        do {
            pool = try FolderLock.withLock(on: PathText.parent(of: path), timeout: .seconds(10)) {
                if creating { try Self.createPrivateFile(at: path) }
                let pool = try SQLitePool(path: path, busyTimeout: Self.busyTimeout, prepareConnection: Self.prepare)
                try HistorySchema.migrator.migrate(pool)
                return pool
            }
        } catch {
            throw .unusableDatabase(path: path, reason: Self.describe(error))
        }
    }

    /// The folder of the versions kept for undo, beside the database: `undo/JOBRUN/` under it
    /// holds each run's (Documentation/UNDO.md). A database named other than
    /// `history.sqlite3` keeps its own, `NAME.undo/`: run numbers are the database's own, so
    /// two databases in one folder (an engine per host of a fleet, `--history-db a.db` and
    /// `b.db`) sharing `undo/` would write one run's versions into the other's run 3, both at
    /// once. Kept files are recorded with their whole path, so runs kept before still undo.
    public var undoFolder: String { Self.undoFolder(forDatabase: path) }

    /// `undoFolder` of the database at `path`, known without opening it.
    public static func undoFolder(forDatabase path: String) -> String {
        let name = PathText.lastComponent(of: path)
        return PathText.appending(name == defaultFileName ? "undo" : name + ".undo", to: PathText.parent(of: path))
    }

    /// The database's name where installtop puts it itself (`defaultPath`, the service's
    /// `/var/lib/installtop/`).
    public static let defaultFileName = "history.sqlite3"

    /// `$XDG_STATE_HOME/installtop/history.sqlite3`, or `$HOME/.local/state/installtop/
    /// history.sqlite3` when `XDG_STATE_HOME` is unset, empty or relative (the XDG spec says
    /// to ignore relative paths). Without `HOME`, the user's home folder from the password
    /// database is used.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let stateHome: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            stateHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? FileManager.default.homeDirectoryForCurrentUser.path
            stateHome = PathText.appending(".local/state", to: home)
        }
        return PathText.appending(defaultFileName, to: PathText.appending("installtop", to: stateHome))
    }

    /// Run on each connection as it opens.
    @Sendable private static func prepare(_ connection: SQLiteConnection) throws {
        // In WAL mode NORMAL loses no committed transaction when a process is killed,
        // only (at worst) the last ones on a power cut, and spares an fsync per commit.
        try connection.execute(sql: "PRAGMA synchronous = NORMAL")
    }

    private static func createParentFolder(of path: String) throws(HistoryError) {
        let folder = PathText.parent(of: path)
        guard !folder.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unusableDatabase(path: path, reason: "cannot create folder \(folder): \(describe(error))")
        }
    }

    /// Creates `path` empty with mode 0600 (less if the umask says so) before SQLite opens it,
    /// so no row is ever written to a file others can read; a file another process created
    /// meanwhile is left as it is.
    private static func createPrivateFile(at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            guard errno == EEXIST else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            return
        }
        close(descriptor)
    }

    // MARK: - Errors

    /// `error` in words for a `HistoryError`: SQLite's own message (`database is locked`), or
    /// the system's for a failed call (`Permission denied`).
    static func describe(_ error: any Error) -> String {
        if let error = error as? SQLiteError { return error.message }
        if let error = error as? FolderLock.TimedOut { return error.description }
        return ErrorText.systemReason(error) ?? String(describing: error)
    }

    /// Runs `body` as one write transaction, turning its errors into `accessFailed`.
    func write<T: Sendable>(_ operation: String, _ body: (SQLiteConnection) throws -> T) throws(HistoryError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw .accessFailed(path: path, operation: operation, reason: Self.describe(error))
        }
    }

    /// Runs `body` in a read-only snapshot, turning its errors into `accessFailed`.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws(HistoryError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw .accessFailed(path: path, operation: "read", reason: Self.describe(error))
        }
    }
}
