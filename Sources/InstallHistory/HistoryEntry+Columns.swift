#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

// MARK: - Writing a row: its columns and their values, in one place

extension HistoryEntry: EncodableRecord {
    /// Every column but `id`, in the order of `columnValues`.
    static let writtenColumns: [CodingKeys] = [
        .operation, .resultCode, .hResult, .unmappedResultCode, .reason, .startedAt, .endedAt,
        .updateID, .revision, .title, .packageAction, .oldVersion, .newVersion, .jobName,
        .clientApplicationID, .durationMs, .outputTail, .writerPID, .writerStartTime, .writerBootID, .isRunning, .observedBy, .jobRun,
    ]

    /// The row's values for `writtenColumns`, `nil` as NULL. Dates are written as text the way
    /// GRDB writes a `Date`, so the recorder's statements and GRDB's record methods store the
    /// same row.
    var columnValues: [(any DatabaseValueConvertible)?] {
        [
            operation.rawValue, resultCode.rawValue, Int64(hResult.rawValue), unmappedResultCode, reason,
            startedAt.map(HistoryDateText.text), endedAt.map(HistoryDateText.text),
            updateID, revision, title, packageAction?.rawValue, oldVersion, newVersion, jobName,
            clientApplicationID, durationMs, outputTail, writer?.pid,
            // SQLite integers are signed 64-bit; clock ticks since boot never come near the limit.
            writer?.startTime.map { Int64(clamping: $0) }, writer?.bootID, isRunning, observedBy.map(ObservedInitiatorText.text(of:)), jobRun,
        ]
    }

    /// Every column for GRDB's record methods (`update`, used by recovery).
    public func encode(to container: inout PersistenceContainer) {
        container[CodingKeys.id] = id
        for (column, value) in zip(Self.writtenColumns, columnValues) {
            container[column] = value
        }
    }
}
