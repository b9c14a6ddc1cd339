#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// One past (or still running) update as the history view lists it: the monitor's own copy of
/// what it needs from a history entry, so that the monitor does not depend on the history store.
/// The runtime reads the store and converts its entries into these.
public struct HistoryRow: Sendable, Hashable {
    /// When the update started; when it never started, when its row was settled; `nil` when
    /// neither is known (shown as a blank date).
    public var date: Date?
    /// The final result, or `inProgress` for a row still being written.
    public var resultCode: OperationResultCode
    /// The update's id in its manifest (unsanitized).
    public var updateID: String
    /// The update's title (unsanitized).
    public var title: String
    /// The job the update ran in (unsanitized).
    public var jobName: String
    /// How long it ran; `nil` while running, for an update that never started and for an
    /// interrupted one.
    public var duration: Duration?
    /// Why it failed, if anything was said (unsanitized).
    public var reason: String?

    public init(
        date: Date?, resultCode: OperationResultCode, updateID: String, title: String, jobName: String,
        duration: Duration? = nil, reason: String? = nil
    ) {
        self.date = date
        self.resultCode = resultCode
        self.updateID = updateID
        self.title = title
        self.jobName = jobName
        self.duration = duration
        self.reason = reason
    }

    /// Whether `lowercasedText` occurs in the id, title, job name, reason or result word
    /// (case-insensitive); the empty text matches every row.
    func matches(_ lowercasedText: String) -> Bool {
        guard !lowercasedText.isEmpty else { return true }
        return [updateID, title, jobName, reason ?? "", resultCode.word]
            .contains { $0.lowercased().contains(lowercasedText) }
    }
}
