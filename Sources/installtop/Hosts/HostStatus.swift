import InstallEngine

/// What one host's engine said to `status --host`: its queue, or why it could not be reached.
enum HostStatus: Sendable {
    case reachable(host: String, QueueModel)
    /// `reason`: ssh's (or the bridge's) own words, or how the engine failed to answer.
    case unreachable(host: String, reason: String)

    var host: String {
        switch self {
        case .reachable(let host, _), .unreachable(let host, _): return host
        }
    }

    var isReachable: Bool {
        if case .reachable = self { return true }
        return false
    }
}
