#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a driver says one of its updates ended (rule 21). The engine turns it into the update's
/// `UpdateInstallationResult`, adding the times, the reported errors and rule 26's reboot.
public struct DriverVerdict: Sendable, Hashable {
    /// `succeeded`, `succeededWithErrors`, `failed` or `aborted`; anything else counts as failed.
    public var resultCode: OperationResultCode
    /// Why it failed or was aborted, in the driver's words (apt's `pmerror` text, Ansible's msg).
    public var reason: String?
    /// Rule 26: the driver's own word on a reboot where it can tell; `nil` falls back to rule 17
    /// (the update's reboot behaviour or a `reboot-required` report).
    public var rebootRequired: Bool?
    /// The driver's raw code for a failure, if it has one.
    public var unmappedResultCode: Int32
    /// What the driver says beyond the code (a skipped, rescued or ignored step…): kept only
    /// when the update counts as succeeded (rule 16).
    public var mark: UpdateResultMark?
    /// The HRESULT when the result code alone does not say it (an update a driver only prepared
    /// and never began is `aborted` with `callCancelled`); `nil` derives it from the result code.
    public var hResult: HResult?
    /// When the update really ended, where the driver knows it better than the time of its
    /// verdict (an observed package: the dpkg line that left it in its final state, its result
    /// told only at the transaction's end); `nil` is the verdict's time. An end before the
    /// update's start counts as its start.
    public var endedAt: Date?
    /// The driver never saw the update begin (an observed package dpkg's lines did not show,
    /// its result read from dpkg's final state): its result has no start and so no duration.
    /// An update already started keeps its start.
    public var startUnknown = false
    /// The package database's final state contradicted what the tool reported for the update
    /// (apt said it done and dpkg does not show it done, or apt said it failed and dpkg shows it
    /// done), and the result is the database's: the engine's metrics count these.
    public var contradictedReport = false

    public init(
        resultCode: OperationResultCode,
        reason: String? = nil,
        rebootRequired: Bool? = nil,
        unmappedResultCode: Int32 = 0,
        hResult: HResult? = nil,
        mark: UpdateResultMark? = nil
    ) {
        self.resultCode = resultCode
        self.reason = reason
        self.rebootRequired = rebootRequired
        self.unmappedResultCode = unmappedResultCode
        self.hResult = hResult
        self.mark = mark
    }

    public static let succeeded = DriverVerdict(resultCode: .succeeded)

    public static func failed(_ reason: String, code: Int32 = 0) -> DriverVerdict {
        DriverVerdict(resultCode: .failed, reason: reason, unmappedResultCode: code)
    }
}
