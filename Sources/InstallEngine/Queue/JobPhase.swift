/// Where a job is in the queue.
public enum JobPhase: Sendable, Hashable {
    /// Waiting for a free installer.
    case queued
    /// Its updates are running.
    case running
    /// Every update has its final result.
    case completed
}
