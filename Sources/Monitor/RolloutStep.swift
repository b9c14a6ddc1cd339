/// What a rollout (`Rollout`) asks of whoever runs it, in order: the board sends commands to
/// its hosts' engines and says the pause; `installtop apt upgrade --hosts` does the same over
/// its links.
public enum RolloutStep: Sendable, Hashable {
    /// Confirm this held job: its host starts.
    case confirm(job: Int)
    /// Decline this held job: its host runs nothing.
    case decline(job: Int)
    /// This host's job failed with hosts left to start: none starts until `Rollout.resume()`
    /// (or `stop()` declines them).
    case paused(host: String)
}
