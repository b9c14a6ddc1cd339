/// How a backend's update ended. The engine maps it to a result (rules 11, 17, 18).
public enum UpdateRunOutcome: Sendable, Hashable {
    /// The child exited with this status (0 is success).
    case exited(Int32)
    /// The child was ended by this signal.
    case signaled(Int32)
    /// The command could not be started; the text names the cause
    /// (`cannot run ./apply.sh: Permission denied`).
    case failedToStart(String)
}
