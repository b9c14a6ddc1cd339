/// Why a night stopped before its last wave passed its gate.
public enum NightStopReason: Sendable, Hashable, Codable {
    /// Wave `wave` (0-based) did not pass its gate: a host reverted, none was confirmed, or
    /// the gate's command failed.
    case gateFailed(wave: Int, reason: String)
    /// More hosts failed than the budget tolerates.
    case budgetExhausted(failures: Int, tolerated: Int)
    /// The window closed with hosts left.
    case windowClosed
    /// `host` was rebooted and its engine did not answer again within the policy's
    /// `reboot.timeout`: whatever the budget, a night does not go on rebooting hosts that do
    /// not come back.
    case hostNotBack(host: String)

    /// One line for the operator.
    public var sentence: String {
        switch self {
        case .gateFailed(let wave, let reason): "wave \(wave + 1) did not pass its gate: \(reason)"
        case .budgetExhausted(let failures, let tolerated):
            "\(failures) \(failures == 1 ? "host" : "hosts") failed, reverted or became unreachable; the failure budget tolerates \(tolerated)"
        case .windowClosed: "the window closed"
        case .hostNotBack(let host): "\(host) did not come back after its reboot"
        }
    }
}
