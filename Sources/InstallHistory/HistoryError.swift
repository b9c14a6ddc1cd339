/// Why the history could not be opened, read or written. Each case names the database file
/// and says what went wrong in words an operator can act on.
public enum HistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Reading was asked of a database that does not exist (nothing recorded there yet).
    case missingDatabase(path: String)
    /// The file or its folder could not be created, opened or migrated: not a database,
    /// corrupt, unreadable, or on a read-only file system.
    case unusableDatabase(path: String, reason: String)
    /// A read or a write failed on a database that opened fine.
    case accessFailed(path: String, operation: String, reason: String)

    /// One line for the operator, naming the file.
    public var description: String {
        switch self {
        case .missingDatabase(let path):
            return "no history database at \(path)"
        case .unusableDatabase(let path, let reason):
            return "cannot use history database \(path): \(reason)"
        case .accessFailed(let path, let operation, let reason):
            return "cannot \(operation) history database \(path): \(reason)"
        }
    }
}
