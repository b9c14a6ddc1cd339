#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import InstallEngine

// MARK: - Writing a row: its columns and their values, in one place

extension HistoryEntry {
    /// Every column but `id`, in the order of `columnValues`.
    static let writtenColumns: [Column] = [
        .operation, .resultCode, .hResult, .unmappedResultCode, .reason, .startedAt, .endedAt,
        .updateID, .revision, .title, .packageAction, .oldVersion, .newVersion, .jobName,
        .clientApplicationID, .durationMs, .outputTail, .writerPID, .writerStartTime, .writerBootID, .isRunning, .observedBy, .jobRun,
    ]

    /// The row's values for `writtenColumns`, `nil` as NULL. Dates are written as text the way
    /// GRDB wrote a `Date` (`SQLiteDateText`), so rows written before and after read the same.
    var columnValues: [(any SQLiteValueConvertible)?] {
        [
            operation.rawValue, resultCode.rawValue, Int64(hResult.rawValue), unmappedResultCode, reason,
            startedAt.map(SQLiteDateText.text), endedAt.map(SQLiteDateText.text),
            updateID, revision, title, packageAction?.rawValue, oldVersion, newVersion, jobName,
            clientApplicationID, durationMs, outputTail, writer?.pid,
            // SQLite integers are signed 64-bit; clock ticks since boot never come near the limit.
            writer?.startTime.map { Int64(clamping: $0) }, writer?.bootID, isRunning, observedBy.map(ObservedInitiatorText.text(of:)), jobRun,
        ]
    }
}
