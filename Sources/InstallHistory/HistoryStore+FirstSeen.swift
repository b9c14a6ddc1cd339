#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

// MARK: - When pending versions were first seen (a patch night's age gate)

extension HistoryStore {
    /// When this history's engine first listed each of `versions` as pending: `now` for those
    /// never listed before, which are recorded, and the recorded time for the rest. With
    /// `forgettingOthers` (a snapshot read without a problem), the versions not among `versions`
    /// are forgotten: they were installed or withdrawn, and one that comes back is new again.
    /// apt records no date for a version, so this is the only age a host has of its updates
    /// (Documentation/POLICY.md, "Age").
    public func firstSeen(_ versions: [PendingVersion], now: Date, forgettingOthers: Bool) throws(HistoryError) -> [PendingVersion: Date] {
        try write("record when pending versions were first seen in") { db in
            if forgettingOthers {
                // The current versions, as a temporary table: a NOT IN over thousands of pairs
                // would be one statement of thousands of arguments.
                try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS currentPending (package TEXT NOT NULL, version TEXT NOT NULL)")
                try db.execute(sql: "DELETE FROM currentPending")
                for version in versions {
                    try db.execute(sql: "INSERT INTO currentPending (package, version) VALUES (?, ?)", arguments: [version.package, version.version])
                }
                try db.execute(sql: """
                    DELETE FROM pendingFirstSeen WHERE NOT EXISTS (
                        SELECT 1 FROM currentPending WHERE currentPending.package = pendingFirstSeen.package
                                                       AND currentPending.version = pendingFirstSeen.version)
                    """)
                try db.execute(sql: "DELETE FROM currentPending")
            }
            var seen: [PendingVersion: Date] = [:]
            for version in versions {
                try db.execute(sql: "INSERT OR IGNORE INTO pendingFirstSeen (package, version, firstSeen) VALUES (?, ?, ?)",
                               arguments: [version.package, version.version, SQLiteDateText.text(now)])
                let first: Date? = try db.fetchOne(sql: "SELECT firstSeen FROM pendingFirstSeen WHERE package = ? AND version = ?",
                                                   arguments: [version.package, version.version]).map { $0["firstSeen"] }
                seen[version] = first ?? now
            }
            return seen
        }
    }
}
