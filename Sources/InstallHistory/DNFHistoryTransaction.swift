#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// A transaction as dnf's own history database records it (`var/lib/dnf/history.sqlite` in a
/// root, libdnf's `trans` table): when it began, whether and how it ended. dnf writes the row
/// just before rpm's transaction runs and its end once rpm's transaction and dnf's check after
/// it are over, in the process that runs rpm: so it says whether dnf and rpm went on to the
/// end of a transaction whose installtop engine stopped (`DNFRunRecovery`). Only read, never
/// written.
public struct DNFHistoryTransaction: Sendable, Hashable {
    /// How dnf left the transaction (libdnf's `TransactionState`).
    public enum State: Sendable, Hashable {
        /// Begun and never ended: the process running rpm died before the end (killed, or
        /// crashed), or runs still.
        case unfinished
        /// Ended, every element and scriptlet without error.
        case done
        /// Ended with errors (a failed element or scriptlet).
        case failed
    }

    public var began: Date
    public var ended: Date?
    public var state: State
    /// The command line dnf recorded: installtop's helper records `installtop ACTION SPEC…`.
    public var commandLine: String?

    public init(began: Date, ended: Date?, state: State, commandLine: String?) {
        self.began = began
        self.ended = ended
        self.state = state
        self.commandLine = commandLine
    }

    /// dnf's history database in `root` (`nil`: this system), where the helper keeps it.
    public static func databasePath(root: String?) -> String {
        (root.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "") + "/var/lib/dnf/history.sqlite"
    }

    /// The transactions installtop's helper began in `root` (`nil`: this system) at `since` or
    /// later (to the whole second, as dnf keeps its times), oldest first; `nil` when dnf's
    /// history cannot be read there (none yet, or not a database dnf wrote).
    public static func helperTransactions(root: String?, since: Date) -> [DNFHistoryTransaction]? {
        let path = databasePath(root: root)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let database = try SQLiteConnection(path: path, access: .readOnly)
            return try database.fetchAll(sql: """
                SELECT dt_begin, dt_end, state, cmdline FROM trans
                    WHERE dt_begin >= ? AND cmdline LIKE 'installtop %' ORDER BY dt_begin, id
                """, arguments: [Int64(since.timeIntervalSince1970.rounded(.down))]).map { row in
                let end: Int64? = row["dt_end"]
                let state: Int64 = row["state"] ?? 0
                return DNFHistoryTransaction(began: Date(timeIntervalSince1970: Double(row["dt_begin"] as Int64? ?? 0)),
                                             ended: end.flatMap { $0 > 0 ? Date(timeIntervalSince1970: Double($0)) : nil },
                                             state: state == 1 ? .done : state == 2 ? .failed : .unfinished,
                                             commandLine: row["cmdline"])
            }
        } catch {
            return nil
        }
    }
}
