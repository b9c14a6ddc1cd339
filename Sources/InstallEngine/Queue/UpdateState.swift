#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What consumers know about one update of a queued job, built from engine events.
public struct UpdateState: Sendable, Hashable {
    public var update: Update
    /// `notStarted`, `inProgress`, or the final result.
    public var result: UpdateInstallationResult
    /// The update's own percentage; `nil` while indeterminate (rule 7).
    public var percent: Double?
    /// The latest status text it reported.
    public var message: String?
    public var startedAt: Date?
    public var output: OutputTail

    public init(update: Update, outputCapacity: Int) {
        self.update = update
        result = .notStarted
        output = OutputTail(capacity: outputCapacity)
    }

    /// How far it really got, 0–100: 100 once it succeeded; for one that failed or was aborted,
    /// the last percent it reported (0 when it never reported one); otherwise its percent so far.
    public var percentReached: Double {
        result.resultCode.isSuccess ? 100 : JobPercent(clamping: percent ?? 0).value
    }
}
