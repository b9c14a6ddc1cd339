#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why `installtop apt undo` changes nothing (exit 2), in words that say what to do.
struct APTUndoRefusal: Error, Sendable, Hashable {
    let message: String

    /// What follows a refusal of run `id` for a user who is not root, whose own history lacks
    /// it: root's histories may hold it, root's own and the service's (`SystemdUnit`), with the
    /// command that undoes it from each.
    static func rootsHistory(holding id: Int, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        "; root's history may hold it: sudo installtop apt undo \(id) (root's own), or sudo installtop apt undo \(id)"
            + " --history-db \(SystemdUnit.serviceHistoryPath(environment: environment)) (the service's)"
    }
}
