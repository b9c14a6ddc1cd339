#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import InstallEngine

// MARK: - Rule 20: updates interrupted by the death of their writer

extension HistoryStore {
    /// Settles every row still marked running whose writer process is gone. Call it at start-up.
    ///
    /// A row of an observed job (`observedBy`) is what another program did, which went on
    /// without the engine that watched it: `settle` gets those rows first, outside the
    /// database's lock, and says what became of each (from dpkg's final state and log, rule
    /// 30); a row it answers `stillRunning` for is left running. Every other row, and every row
    /// `settle` says nothing about, is settled as `failed` with `installerFailure` and reason
    /// "interrupted", ended `now`, with no duration (when the writer died is unknown).
    ///
    /// Rows of a run still open that recorded its engine and dpkg (`JobRunOrigin`) are left to
    /// `recoverInterruptedRuns`, which settles them with their run once its transaction is over.
    ///
    /// A writer is gone when its pid no longer exists, is a zombie, belongs to a process that
    /// started at another time (a reused pid), or was recorded before the last reboot. Rows
    /// written before the writer was recorded (the first schema) count as gone. Rows of a live
    /// process, this one included, are left alone; no other row is touched. Safe to call from
    /// several processes at once: the check and the update are one transaction (a row another
    /// process settled meanwhile is not touched again).
    ///
    /// - Returns: the rows it settled, as they are now stored.
    @discardableResult
    public func recoverInterruptedEntries(
        now: Date = Date(), settle: (([HistoryEntry]) -> [Int64: RecoveredResult])? = nil
    ) throws(HistoryError) -> [HistoryEntry] {
        var verdicts: [Int64: RecoveredResult] = [:]
        if let settle {
            let observed = try read { db in
                try Self.entries(db, where: "isRunning").filter { entry in
                    entry.observedBy != nil && !(entry.writer?.isAlive ?? false)
                }
            }
            if !observed.isEmpty { verdicts = settle(observed) }
        }
        return try write("recover interrupted entries in") { db in
            var recovered: [HistoryEntry] = []
            // Rows of an open run that recorded its engine and dpkg (or its dnf root) are settled
            // with their run, from dpkg (rpm), once its transaction is over
            // (`recoverInterruptedRuns`), never as interrupted.
            let settledWithTheirRun = Set(try db.fetchValues(Int64.self, sql: "SELECT id FROM jobRun WHERE endedAt IS NULL"
                + " AND writerPID IS NOT NULL AND (administrativeDirectory IS NOT NULL OR installRoot IS NOT NULL)"))
            // `WHERE isRunning`, spelled like the partial index, so only running rows are read.
            for var entry in try Self.entries(db, where: "isRunning") {
                if let writer = entry.writer, writer.isAlive { continue }
                if let run = entry.jobRun, settledWithTheirRun.contains(run) { continue }
                switch entry.id.flatMap({ verdicts[$0] }) {
                case .stillRunning?:
                    continue
                case .settled(let resultCode, let hResult, let reason, let endedAt)?:
                    Self.settle(&entry, resultCode, hResult, reason, endedAt, now: now)
                case nil:
                    entry.resultCode = .failed
                    entry.hResult = .installerFailure
                    entry.reason = Self.interruptedReason
                    entry.endedAt = now
                    // When the writer died is unknown (possibly long before `now`), so is the duration.
                    entry.durationMs = nil
                }
                entry.isRunning = false
                _ = try Self.updateRow(entry, in: db)
                recovered.append(entry)
            }
            return recovered
        }
    }

    /// `row` settled with a caller's verdict, not running any more; its duration when the
    /// caller knows when it ended.
    static func settle(_ row: inout HistoryEntry, _ code: OperationResultCode, _ hResult: HResult, _ reason: String,
                       _ endedAt: Date?, now: Date) {
        row.resultCode = code
        row.hResult = hResult
        row.reason = reason
        row.endedAt = endedAt ?? now
        row.durationMs = endedAt.flatMap { end in
            row.startedAt.map { Int64((end.timeIntervalSince($0) * 1000).rounded()) }
        }.map { max(0, $0) }
        row.isRunning = false
    }
}
