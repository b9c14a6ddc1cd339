/// Where one host is in a night.
public enum HostStep: Sendable, Hashable, Codable {
    /// Not started: the only step a host is ever started from.
    case pending
    /// Started (the stamp says so before the host's job is submitted); its outcome is not known.
    case running
    /// Its job ran and its commit-confirmed checks confirmed it healthy.
    case confirmed
    /// Its job (or the `before` command) failed; nothing was confirmed.
    case failed(reason: String)
    /// Its job ran but was undone: not confirmed by the deadline, or a check regressed.
    case reverted(reason: String)
    /// The host could not be reached.
    case unreachable(reason: String)

    /// Whether the step counts against the failure budget.
    public var isFailure: Bool {
        switch self {
        case .failed, .reverted, .unreachable: true
        case .pending, .running, .confirmed: false
        }
    }

    /// Why it failed, reverted or was unreachable; `nil` for the other steps.
    public var reason: String? {
        switch self {
        case .failed(let reason), .reverted(let reason), .unreachable(let reason): reason
        case .pending, .running, .confirmed: nil
        }
    }

    /// `pending`, `running`, `confirmed`, `failed`, `reverted`, `unreachable`.
    public var word: String {
        switch self {
        case .pending: "pending"
        case .running: "running"
        case .confirmed: "confirmed"
        case .failed: "failed"
        case .reverted: "reverted"
        case .unreachable: "unreachable"
        }
    }
}
