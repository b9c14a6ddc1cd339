import Foundation

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
}
