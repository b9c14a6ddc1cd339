import InstallEngine

/// How a monitor session ended.
public enum MonitorOutcome: Sendable, Hashable {
    /// The user quit (or detached), or every job was done with `--exit-when-done`.
    case quit
    /// The user quit while jobs were queued or running; they were aborted (in `run`).
    case quitWhileRunning
    /// The engine went away (`attach`); the text says how.
    case linkLost(String)
    /// The job the monitor followed completed (its last state), or left the queue without a
    /// result (`nil`: its plan was declined).
    case followedJobEnded(JobState?)
}
