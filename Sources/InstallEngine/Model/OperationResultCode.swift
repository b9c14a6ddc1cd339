/// The outcome of an update or a job. Raw values are WUA's `OperationResultCode` and are part
/// of the JSON contract.
public enum OperationResultCode: Int, Sendable, Hashable, CaseIterable {
    /// orcNotStarted: not reached yet.
    case notStarted = 0
    /// orcInProgress: running now.
    case inProgress = 1
    /// orcSucceeded: finished without error.
    case succeeded = 2
    /// orcSucceededWithErrors: finished, but errors were reported.
    case succeededWithErrors = 3
    /// orcFailed: did not complete.
    case failed = 4
    /// orcAborted: cancelled by an abort request.
    case aborted = 5

    /// The camelCase name used in JSON (`"result":"succeededWithErrors"`).
    public var name: String {
        switch self {
        case .notStarted: return "notStarted"
        case .inProgress: return "inProgress"
        case .succeeded: return "succeeded"
        case .succeededWithErrors: return "succeededWithErrors"
        case .failed: return "failed"
        case .aborted: return "aborted"
        }
    }

    /// The word people read for it, the same in the monitor, `status` and the plain summary,
    /// beside the same glyph (✔ succeeded, ! with errors, ✖ failed, ⊘ aborted).
    public var word: String {
        switch self {
        case .notStarted: return "queued"
        case .inProgress: return "running"
        case .succeeded: return "succeeded"
        case .succeededWithErrors: return "with errors"
        case .failed: return "failed"
        case .aborted: return "aborted"
        }
    }

    /// The word for a job's result when only its code is known (a history's run): a job's
    /// `succeededWithErrors` is WUA's mix of succeeded and failed updates (rule 16), which every
    /// surface shows as `failed` (`InstallationResult.shownResultCode`); otherwise `word`.
    public var jobWord: String { self == .succeededWithErrors ? Self.failed.word : word }

    /// Whether the update got installed (with or without reported errors).
    public var isSuccess: Bool { self == .succeeded || self == .succeededWithErrors }

    /// Whether this is a final state (anything but not started and in progress).
    public var isFinal: Bool { rawValue >= OperationResultCode.succeeded.rawValue }
}
