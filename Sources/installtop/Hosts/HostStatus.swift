import EngineWire
import InstallEngine

/// What one host's engine said to `status --host`: its queue, or why it could not be reached.
enum HostStatus: Sendable {
    /// `armed`: the host's commit-confirmed runs, as its engine pushed them after its snapshot
    /// (none from an engine that keeps no history).
    case reachable(host: String, QueueModel, armed: [ArmedRun] = [])
    /// `reason`: ssh's (or the bridge's) own words, or how the engine failed to answer.
    case unreachable(host: String, reason: String)

    var host: String {
        switch self {
        case .reachable(let host, _, _), .unreachable(let host, _): return host
        }
    }

    var isReachable: Bool {
        if case .reachable = self { return true }
        return false
    }
}
