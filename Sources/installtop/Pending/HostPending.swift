import EngineWire
import InstallDrivers

/// One host's answer to `pending --host/--hosts`: its engine's snapshot, or why it could not be
/// had (ssh's own words for an unreachable host).
enum HostPending: Sendable {
    case reachable(host: String, snapshot: PendingSnapshot, computing: Bool)
    case unreachable(host: String, reason: String)

    var host: String {
        switch self {
        case .reachable(let host, _, _), .unreachable(let host, _): host
        }
    }

    /// Reachable, with a snapshot that could be read.
    var isComplete: Bool {
        if case .reachable(_, let snapshot, _) = self { return snapshot.problem == nil }
        return false
    }
}
