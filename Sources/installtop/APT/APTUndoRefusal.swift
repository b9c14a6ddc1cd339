#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why `installtop apt undo` or `installtop apt repair` changes nothing (exit 2), in words that
/// say what to do.
struct APTUndoRefusal: Error, Sendable, Hashable {
    let message: String

    /// What follows a refusal of run `id` for a user who is not root, whose own history lacks
    /// it: root's histories may hold it, root's own and the service's (`SystemdUnit`), with the
    /// command (`installtop apt VERB ID`) that reaches it in each.
    static func rootsHistory(holding id: Int, verb: String = "undo",
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        "; root's history may hold it: sudo installtop apt \(verb) \(id) (root's own), or sudo installtop apt \(verb) \(id)"
            + " --history-db \(SystemdUnit.serviceHistoryPath(environment: environment)) (the service's)"
    }
}
