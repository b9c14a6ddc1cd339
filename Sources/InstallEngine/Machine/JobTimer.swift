/// A timer a `JobMachine` asks its runner to schedule. It names what it is for, so a timer
/// that fires late (after its update ended) is recognised and ignored.
public enum JobTimer: Sendable, Hashable {
    /// The abort grace of update `index` is over: kill it if it still runs (rule 11).
    case abortGrace(index: Int)
    /// Update `index` ran past its timeout: kill it and fail it as hung.
    case timeout(index: Int)
}
