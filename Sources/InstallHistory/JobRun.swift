#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// One job run as `installtop history --jobs` lists it: what ran, how it ended, the packages
/// it changed, what was kept of the versions it replaced, and whether it can be undone now.
public struct JobRun: Sendable, Hashable {
    /// The run id (`JOBRUN` of `installtop apt undo`).
    public var id: Int64
    /// The package tool of a package job (`apt`, `dnf`; `HistoryRecorder.kind(of:)`),
    /// `commands` for a list of commands, `driver` for another driver's job, `shell` for a
    /// shell opened on a host from the board (its recording: `HistoryStore.shellRecording`).
    public var kind: String
    public var name: String
    public var operation: UpdateOperation
    public var startedAt: Date?
    /// `nil` while the run goes on (or when its process died before recording its end).
    public var endedAt: Date?
    /// `nil` while the run goes on.
    public var resultCode: OperationResultCode?
    /// A transaction installtop observed (rule 28) rather than ran.
    public var observed: Bool
    /// An observed transaction whose replaced versions the hooks kept before dpkg ran
    /// (`installtop hooks install --keep-for-undo`, rule 37): undoable like installtop's own.
    public var keptForUndo: Bool
    /// The run that undid this one.
    public var undoneBy: Int64?
    /// The run this one undid.
    public var undoOf: Int64?
    /// The root a dnf run acted on (`/` for the system); `nil` for apt runs and dnf runs
    /// recorded before roots were.
    public var installRoot: String?
    /// The dpkg database an apt run changed (`/var/lib/dpkg`), whose state now its undo follows;
    /// `nil` for dnf runs and runs recorded before it was.
    public var administrativeDirectory: String?
    /// The packages the run's updates name, in the order they were recorded.
    public var packages: [JobRunPackage]
    /// What was kept of the versions it replaced (several rows for a package kept twice, by a
    /// retry).
    public var kept: [KeptVersionRecord]
    /// Why it cannot be undone now (`JobRunUndoability`); `nil` when it can.
    public var notUndoableBecause: String?
    /// Its commit-confirmed window, when it was armed (`--confirm`); `nil` otherwise.
    public var confirmWindow: ConfirmWindow?

    public var undoable: Bool { notUndoableBecause == nil }

    /// The version kept of what `package` replaced (its old version), when its file is there
    /// to put back (kept, not pruned); `nil` otherwise. What every undo puts back from.
    public func usableKept(of package: JobRunPackage) -> KeptVersionRecord? {
        kept.first { $0.package == package.name && $0.version == package.oldVersion && $0.file != nil && $0.prunedAt == nil }
    }

    /// Whether its job was a package tool's transaction: its kind names the tool.
    public var isPackageJob: Bool { kind != JobRun.commandsKind && kind != JobRun.driverKind && kind != JobRun.shellKind }

    /// The kinds of the jobs that are not a package tool's.
    static let commandsKind = "commands"
    static let driverKind = "driver"
    /// A shell on a host, recorded (`HistoryStore.reserveShellRun`).
    public static let shellKind = "shell"

    public init(id: Int64, kind: String, name: String, operation: UpdateOperation, startedAt: Date?, endedAt: Date?,
                resultCode: OperationResultCode?, observed: Bool = false, keptForUndo: Bool = false, undoneBy: Int64? = nil, undoOf: Int64? = nil,
                installRoot: String? = nil, administrativeDirectory: String? = nil, packages: [JobRunPackage] = [],
                kept: [KeptVersionRecord] = [], notUndoableBecause: String? = nil) {
        self.id = id
        self.kind = kind
        self.name = name
        self.operation = operation
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.resultCode = resultCode
        self.observed = observed
        self.keptForUndo = keptForUndo
        self.undoneBy = undoneBy
        self.undoOf = undoOf
        self.installRoot = installRoot
        self.administrativeDirectory = administrativeDirectory
        self.packages = packages
        self.kept = kept
        self.notUndoableBecause = notUndoableBecause
    }
}
