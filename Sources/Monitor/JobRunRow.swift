#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// One job run as the history view's runs list shows it (`installtop history --jobs` in the
/// monitor): the monitor's own copy of what it needs from the history's run, so that the
/// monitor does not depend on the history store. The runtime converts the store's runs.
public struct JobRunRow: Sendable, Hashable {
    /// The run id, what `u` and `installtop apt undo` take.
    public var id: Int
    /// When it started (or ended, when the start is not known); `nil` shows a blank date.
    public var date: Date?
    /// `apt`, `commands`, `driver` (unsanitized).
    public var kind: String
    /// The job's name (unsanitized).
    public var name: String
    /// `nil` while the run goes on (or when its process died before recording its end).
    public var resultCode: OperationResultCode?
    /// The packages it changed with their versions, `lab-app 1.0 → 2.0` (unsanitized).
    public var packages: [String]
    /// Why it cannot be undone now; `nil` when it can.
    public var notUndoableBecause: String?

    public init(id: Int, date: Date?, kind: String, name: String, resultCode: OperationResultCode?, packages: [String] = [],
                notUndoableBecause: String? = nil) {
        self.id = id
        self.date = date
        self.kind = kind
        self.name = name
        self.resultCode = resultCode
        self.packages = packages
        self.notUndoableBecause = notUndoableBecause
    }

    public var undoable: Bool { notUndoableBecause == nil }

    /// Whether `lowercasedText` occurs in the id, kind, name, a package or the result word
    /// (case-insensitive); the empty text matches every row.
    func matches(_ lowercasedText: String) -> Bool {
        guard !lowercasedText.isEmpty else { return true }
        return ([String(id), kind, name, resultCode?.jobWord ?? "running"] + packages)
            .contains { $0.lowercased().contains(lowercasedText) }
    }
}
