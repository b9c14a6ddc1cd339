/// What a driver says of an update beyond its result code, where the code alone would mislead:
/// each but `notReached` and `cleared` is on a succeeded result (rule 16), and each is shown with
/// its own word and glyph. Ansible's are the ones its PLAY RECAP counts apart from ok and failed.
public enum UpdateResultMark: String, Sendable, Hashable, CaseIterable {
    /// The driver skipped the step (a `when` that was false, a rescue with nothing to rescue).
    case skipped
    /// It failed and a rescue section took the failure over: the host went on.
    case rescued
    /// It failed and the play said to ignore that (`ignore_errors`): the host went on.
    case ignored
    /// On a `failed` update: it failed, ending its host's play, and a later step took the
    /// failure back (Ansible's `meta: clear_host_errors`): the host goes on in later plays and
    /// the run's exit status does not count it, while Ansible's recap still counts it failed, as
    /// the update's result does.
    case cleared
    /// It ran once for several hosts, on another one (`run_once`); the reason names that host.
    case ranElsewhere
    /// The driver went past it without saying what happened; nothing is guessed.
    case unknown
    /// On an `aborted` update that never started: the driver never came to it (a later batch
    /// of a play that stopped, a host that failed in an earlier play). Nothing of it failed,
    /// and no one aborted it: it makes the exit status neither aborted nor failed by itself.
    case notReached

    /// The word shown for it, in place of the result code's name.
    public var word: String {
        switch self {
        case .skipped: return "skipped"
        case .rescued: return "rescued"
        case .ignored: return "ignored"
        case .cleared: return "failed, cleared"
        case .ranElsewhere: return "ran elsewhere"
        case .unknown: return "unknown"
        case .notReached: return "not reached"
        }
    }
}
