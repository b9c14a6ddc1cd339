/// What a driver says of an update beyond its result code, where the code alone would mislead:
/// each counts as succeeded for the WUA result (rule 16) and is shown with its own word and
/// glyph. Ansible's are the ones its PLAY RECAP counts apart from ok and failed.
public enum UpdateResultMark: String, Sendable, Hashable, CaseIterable {
    /// The driver skipped the step (a `when` that was false, a rescue with nothing to rescue).
    case skipped
    /// It failed and a rescue section took the failure over: the host went on.
    case rescued
    /// It failed and the play said to ignore that (`ignore_errors`): the host went on.
    case ignored
    /// It ran once for several hosts, on another one (`run_once`); the reason names that host.
    case ranElsewhere
    /// The driver went past it without saying what happened; nothing is guessed.
    case unknown

    /// The word shown for it, in place of the result code's name.
    public var word: String {
        switch self {
        case .skipped: return "skipped"
        case .rescued: return "rescued"
        case .ignored: return "ignored"
        case .ranElsewhere: return "ran elsewhere"
        case .unknown: return "unknown"
        }
    }
}
