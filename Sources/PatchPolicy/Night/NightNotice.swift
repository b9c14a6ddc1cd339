/// What the policy's `notify:` command is told about, from the night's machine.
public enum NightNotice: Sendable, Hashable {
    /// Wave `wave` (0-based) passed its gate.
    case wavePassed(wave: Int)
    case stopped(NightStopReason)
    /// The last wave passed its gate.
    case finished
}
