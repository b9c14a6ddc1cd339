#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The result of one update of a job (WUA `IUpdateInstallationResult`, with our extras).
public struct UpdateInstallationResult: Sendable, Hashable {
    public var resultCode: OperationResultCode
    public var hResult: HResult
    /// A fact, not a prediction (rule 17). Only a succeeded update can require a reboot.
    public var rebootRequired: Bool
    /// The raw exit status, or 128 + signal number; 0 when the child was never run.
    public var unmappedResultCode: Int32
    /// Why it failed, in words an operator can act on (`cannot run ./x.sh: No such file or
    /// directory`, `timed out after 30s`, `interrupted`); `nil` when there is nothing to say.
    public var reason: String?
    /// The texts of the `error` lines (and `pmerror:` lines) the update reported.
    public var reportedErrors: [String]
    /// What the driver said beyond the code (skipped, rescued, ignored, ran elsewhere, unknown
    /// on a result that counts as succeeded, rule 16; not reached on an aborted one); `nil` for
    /// a plain one.
    public var mark: UpdateResultMark?
    public var startedAt: Date?
    public var endedAt: Date?
    /// The package database's final state contradicted the tool's report, and the result is
    /// the database's (`DriverVerdict.contradictedReport`). Only in the events of the engine
    /// that ran the job, for its metrics: it is not carried over the wire nor recorded in the
    /// history, where the reason says it in words.
    public var contradictedReport = false

    public init(
        resultCode: OperationResultCode,
        hResult: HResult = .ok,
        rebootRequired: Bool = false,
        unmappedResultCode: Int32 = 0,
        reason: String? = nil,
        reportedErrors: [String] = [],
        startedAt: Date? = nil,
        endedAt: Date? = nil
    ) {
        self.resultCode = resultCode
        self.hResult = hResult
        self.rebootRequired = rebootRequired
        self.unmappedResultCode = unmappedResultCode
        self.reason = reason
        self.reportedErrors = reportedErrors
        self.startedAt = startedAt
        self.endedAt = endedAt
    }

    /// Not reached yet.
    public static let notStarted = UpdateInstallationResult(resultCode: .notStarted)

    /// A step its driver skipped (Ansible's skipped task), shown as skipped.
    public var skipped: Bool { mark == .skipped }

    /// Wall time between start and end, when both are known.
    public var duration: Duration? {
        guard let startedAt, let endedAt else { return nil }
        return .milliseconds(Int64((endedAt.timeIntervalSince(startedAt) * 1000).rounded()))
    }
}
