/// Where a night is as a whole.
public enum NightPhase: Sendable, Hashable, Codable {
    /// Starting and waiting for the hosts of wave `wave` (0-based).
    case patching(wave: Int)
    /// Every host of wave `wave` ended; the gate's command runs.
    case gating(wave: Int)
    /// Stopping: no host is started any more; the running ones finish.
    case draining(NightStopReason)
    /// Stopped before the last wave passed its gate; nothing runs.
    case stopped(NightStopReason)
    /// Every wave passed its gate.
    case finished

    /// Whether nothing more will happen this night.
    public var isOver: Bool {
        switch self {
        case .stopped, .finished: true
        case .patching, .gating, .draining: false
        }
    }
}
