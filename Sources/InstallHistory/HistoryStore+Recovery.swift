#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import InstallEngine

// MARK: - Rule 20: updates interrupted by the death of their writer

extension HistoryStore {
    /// Settles every row still marked running whose writer process is gone, as `failed` with
    /// `installerFailure` and reason "interrupted", ended `now`, with no duration (when the
    /// writer died is unknown). Call it at start-up.
    ///
    /// A writer is gone when its pid no longer exists, is a zombie, belongs to a process that
    /// started at another time (a reused pid), or was recorded before the last reboot. Rows
    /// written before the writer was recorded (the first schema) count as gone. Rows of a live
    /// process, this one included, are left alone; no other row is touched. Safe to call from
    /// several processes at once: the check and the update are one transaction.
    ///
    /// - Returns: the rows it settled, as they are now stored.
    @discardableResult
    public func recoverInterruptedEntries(now: Date = Date()) throws(HistoryError) -> [HistoryEntry] {
        try write("recover interrupted entries in") { db in
            var recovered: [HistoryEntry] = []
            // `WHERE isRunning`, spelled like the partial index, so only running rows are read.
            for var entry in try HistoryEntry.filter(sql: "isRunning").fetchAll(db) {
                if let writer = entry.writer, writer.isAlive { continue }
                entry.isRunning = false
                entry.resultCode = .failed
                entry.hResult = .installerFailure
                entry.reason = Self.interruptedReason
                entry.endedAt = now
                // When the writer died is unknown (possibly long before `now`), so is the duration.
                entry.durationMs = nil
                try entry.update(db)
                recovered.append(entry)
            }
            return recovered
        }
    }
}
