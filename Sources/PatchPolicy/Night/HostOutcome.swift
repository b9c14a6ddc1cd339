/// How a host's step ended, as the runner reports it (`NightMachine.hostEnded`).
public enum HostOutcome: Sendable, Hashable {
    case confirmed
    case failed(reason: String)
    case reverted(reason: String)
    case unreachable(reason: String)
    /// It was rebooted and its engine did not answer again in time: the host is unreachable,
    /// and the night stops whatever its budget (`NightStopReason.hostNotBack`).
    case notBack(reason: String)

    /// The host's step from now on.
    var step: HostStep {
        switch self {
        case .confirmed: .confirmed
        case .failed(let reason): .failed(reason: reason)
        case .reverted(let reason): .reverted(reason: reason)
        case .unreachable(let reason), .notBack(let reason): .unreachable(reason: reason)
        }
    }
}
