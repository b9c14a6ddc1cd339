#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import InstallEngine

/// One row of the install history: one update of one job, running or finished (rule 19).
///
/// A row is inserted, marked running, when its update starts, and settled when it completes;
/// an update that never started (aborted before its turn) gets one finished row. Dates are
/// stored in UTC with millisecond precision.
public struct HistoryEntry: Sendable, Hashable {
    /// The row id, `nil` until inserted. Ids only grow, so they order rows written at one time.
    public var id: Int64?
    /// Install (1) or uninstall (2), WUA's numbers.
    public var operation: UpdateOperation
    /// `inProgress` while running; final once settled.
    public var resultCode: OperationResultCode
    /// WUA's error code; `ok` on success.
    public var hResult: HResult
    /// The raw exit status, or 128 + signal number; 0 when the child never ran.
    public var unmappedResultCode: Int32
    /// Why it failed (`interrupted`, `timed out after 30s`, …); `nil` when there is nothing to say.
    public var reason: String?
    /// `nil` for an update that never started.
    public var startedAt: Date?
    /// `nil` while running.
    public var endedAt: Date?
    /// The update's id in its manifest.
    public var updateID: String
    /// The update's revision.
    public var revision: Int
    /// The update's title as the manifest gave it (unsanitized).
    public var title: String
    /// For an update of a package job, what it did to the package; `nil` for every other
    /// update and for rows recorded before packages were kept.
    public var packageAction: PackageChange.Action?
    /// For a package update, the version installed before (upgrades, reinstalls, removals).
    public var oldVersion: String?
    /// For a package update, the version it installs; `nil` for removals.
    public var newVersion: String?
    /// The name of the job the update ran in.
    public var jobName: String
    /// The caller that ran the job (WUA `ClientApplicationID`); "installtop" unless set.
    public var clientApplicationID: String
    /// `nil` while running, for an update that never started, and for an interrupted one.
    public var durationMs: Int64?
    /// The last lines of the update's stdout and stderr (at most 200), joined with "\n".
    public var outputTail: String
    /// The installtop process that wrote the row; `nil` for rows of the first schema.
    public var writer: ProcessIdentity?
    /// True from the update's start until its row is settled (or recovered as interrupted).
    public var isRunning: Bool
    /// For an update of an observed job (rule 28): who ran the transaction and the dpkg it
    /// changed; `nil` for every other row and for rows recorded before it was kept.
    public var observedBy: ObservedInitiator?
    /// The job run the update belongs to (`jobRun` table, `installtop history --jobs`); `nil`
    /// for rows recorded before runs were.
    public var jobRun: Int64?

    /// A row with the given fields; the defaults are those of a plain successful install.
    public init(
        id: Int64? = nil,
        operation: UpdateOperation,
        resultCode: OperationResultCode,
        hResult: HResult = .ok,
        unmappedResultCode: Int32 = 0,
        reason: String? = nil,
        startedAt: Date?,
        endedAt: Date?,
        updateID: String,
        revision: Int = 1,
        title: String,
        packageAction: PackageChange.Action? = nil,
        oldVersion: String? = nil,
        newVersion: String? = nil,
        jobName: String,
        clientApplicationID: String = HistoryRecorder.defaultClientApplicationID,
        durationMs: Int64? = nil,
        outputTail: String = "",
        writer: ProcessIdentity? = nil,
        isRunning: Bool = false,
        observedBy: ObservedInitiator? = nil,
        jobRun: Int64? = nil
    ) {
        self.id = id
        self.operation = operation
        self.resultCode = resultCode
        self.hResult = hResult
        self.unmappedResultCode = unmappedResultCode
        self.reason = reason
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.updateID = updateID
        self.revision = revision
        self.title = title
        self.packageAction = packageAction
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.jobName = jobName
        self.clientApplicationID = clientApplicationID
        self.durationMs = durationMs
        self.outputTail = outputTail
        self.writer = writer
        self.isRunning = isRunning
        self.observedBy = observedBy
        self.jobRun = jobRun
    }

    /// `durationMs` as a `Duration`.
    public var duration: Duration? { durationMs.map { .milliseconds($0) } }
}

// MARK: - Reading a database row (writing is in HistoryEntry+Columns)

extension HistoryEntry {
    /// Column names of the `historyEntry` table.
    enum Column: String, CaseIterable {
        case id, operation, resultCode, hResult, unmappedResultCode, reason, startedAt, endedAt
        case updateID, revision, title, jobName, clientApplicationID, durationMs, outputTail
        case writerPID, writerStartTime, writerBootID, isRunning
        case packageAction, oldVersion, newVersion
        case observedBy
        case jobRun
    }

    /// The table, created by `HistorySchema`.
    public static let databaseTableName = "historyEntry"

    /// Reads a row of the table. Unknown operation or result numbers, or an unknown package
    /// action (written by a newer installtop) are reported as an `UnreadableHistoryRow` rather
    /// than guessed, and so is a NULL where the schema allows none.
    init(row: SQLiteRow) throws {
        func required<T: SQLiteValueConvertible>(_ column: Column) throws -> T {
            guard let value: T = row[column.rawValue] else {
                throw UnreadableHistoryRow(column: column.rawValue, problem: "\(row.value(named: column.rawValue)) is not a \(T.self)")
            }
            return value
        }
        id = row[Column.id.rawValue]
        let operationValue: Int = try required(.operation)
        guard let operation = UpdateOperation(rawValue: operationValue) else {
            throw UnreadableHistoryRow(column: Column.operation.rawValue, problem: "unknown operation \(operationValue)")
        }
        self.operation = operation
        let resultValue: Int = try required(.resultCode)
        guard let resultCode = OperationResultCode(rawValue: resultValue) else {
            throw UnreadableHistoryRow(column: Column.resultCode.rawValue, problem: "unknown result code \(resultValue)")
        }
        self.resultCode = resultCode
        hResult = HResult(rawValue: UInt32(truncatingIfNeeded: try required(.hResult) as Int64))
        unmappedResultCode = try required(.unmappedResultCode)
        reason = row[Column.reason.rawValue]
        startedAt = row[Column.startedAt.rawValue]
        endedAt = row[Column.endedAt.rawValue]
        updateID = try required(.updateID)
        revision = try required(.revision)
        title = try required(.title)
        if let actionName: String = row[Column.packageAction.rawValue] {
            guard let action = PackageChange.Action(rawValue: actionName) else {
                throw UnreadableHistoryRow(column: Column.packageAction.rawValue, problem: "unknown package action \(actionName)")
            }
            packageAction = action
        } else {
            packageAction = nil
        }
        oldVersion = row[Column.oldVersion.rawValue]
        newVersion = row[Column.newVersion.rawValue]
        jobName = try required(.jobName)
        clientApplicationID = try required(.clientApplicationID)
        durationMs = row[Column.durationMs.rawValue]
        outputTail = try required(.outputTail)
        if let pid: Int32 = row[Column.writerPID.rawValue] {
            writer = ProcessIdentity(
                pid: pid,
                startTime: (row[Column.writerStartTime.rawValue] as Int64?).map { UInt64(bitPattern: $0) },
                bootID: row[Column.writerBootID.rawValue])
        } else {
            writer = nil
        }
        isRunning = try required(.isRunning)
        // A text this installtop cannot read (written by a newer one) leaves the row as any
        // other: recovery then settles it as interrupted, as before observed rows were kept.
        observedBy = (row[Column.observedBy.rawValue] as String?).flatMap(ObservedInitiatorText.initiator(from:))
        jobRun = row[Column.jobRun.rawValue]
    }
}
