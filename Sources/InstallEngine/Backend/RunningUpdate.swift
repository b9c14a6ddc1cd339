/// A handle on one update a backend is running. Its `outcome` comes once the update has ended:
/// the child exited, what was left of its process group was killed, every child reaped and its
/// output drained, every reporter call made.
public protocol RunningUpdate: RunningOutcome {
    /// Asks the update to stop gracefully (SIGTERM to its process group). Returns at once;
    /// idempotent; a no-op once the update has ended.
    func terminate()
    /// Stops the update now (SIGKILL to its process group). Returns at once; idempotent.
    func kill()
}
