/// A timer a `JobMachine` asks its runner to schedule. It names what it is for, so a timer
/// that fires late (after its update ended) is recognised and ignored.
public enum JobTimer: Sendable, Hashable {
    /// The abort grace of update `index` is over: kill it if it still runs (rule 11).
    case abortGrace(index: Int)
    /// Update `index` ran past its timeout: SIGTERM now, SIGKILL once its abort grace is over;
    /// it fails as hung.
    case timeout(index: Int)
    /// A second of the grace after update `index`'s timeout has passed: count down in its status
    /// message, or kill it when the grace is over.
    case timeoutGrace(index: Int)
}
