/// What a rollout's runner sees of one of its held jobs, for `Rollout.advance`.
public enum RolloutJobSight: Sendable, Hashable {
    /// Not known for now: its host's queue is being shown afresh (a reconnect); it comes back.
    case unknown
    /// Gone from its host's queue (declined or cleaned up elsewhere) with no end seen.
    case gone
    /// Queued, held for its yes, or confirmed by this rollout and not started yet.
    case queued
    /// Running, or confirmed by someone else (another board, `installtop confirm`): it is started.
    case running
    /// Ran to its end; `failed` when it failed or was aborted.
    case completed(failed: Bool)
}
