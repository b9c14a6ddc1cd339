/// The monitor is on its way out: the user confirmed quitting while jobs ran, every job was
/// asked to abort, and the monitor quits once they have all completed.
public enum QuitPhase: Sendable, Hashable {
    /// Graceful aborts requested (rule 11); `q` again escalates.
    case waitingForAborts
    /// Escalated: the jobs' processes are being killed (rule 12).
    case killing
}
