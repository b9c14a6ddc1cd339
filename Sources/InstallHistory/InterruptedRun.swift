#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// A package job's run that never recorded its end and whose engine is gone, as
/// `HistoryStore.recoverInterruptedRuns` hands it to the caller to settle from the tool's own
/// records (dpkg's, rpm's).
public struct InterruptedRun: Sendable, Hashable {
    public var id: Int64
    /// The kind of job that ran it (`apt`, `dnf`), as `JobRun.kind`: whose records settle it.
    public var kind: String
    public var name: String
    public var operation: UpdateOperation
    public var startedAt: Date?
    /// A transaction installtop watched rather than ran.
    public var observed: Bool
    public var origin: JobRunOrigin
    /// Its rows as recorded (those of packages begun before the engine died).
    public var rows: [HistoryEntry]

    public init(id: Int64, kind: String, name: String, operation: UpdateOperation, startedAt: Date?, observed: Bool, origin: JobRunOrigin,
                rows: [HistoryEntry]) {
        self.id = id
        self.kind = kind
        self.name = name
        self.operation = operation
        self.startedAt = startedAt
        self.observed = observed
        self.origin = origin
        self.rows = rows
    }
}
