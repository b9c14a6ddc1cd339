#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why an undo or a repair of a run (`installtop apt undo`, `apt repair`, `dnf undo`, `u` in the
/// monitor's history view) changes nothing (exit 2), in words that say what to do.
struct UndoRefusal: Error, Sendable, Hashable {
    let message: String

    /// What follows a refusal of run `id` for a user who is not root, whose own history lacks
    /// it: root's histories may hold it, root's own and the service's (`SystemdUnit`), with the
    /// command (`installtop TOOL VERB ID`, or `installtop history --jobs` when no tool's
    /// command asked) that reaches it in each.
    static func rootsHistory(holding id: Int, tool: String?, verb: String,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let command = tool.map { "installtop \($0) \(verb) \(id)" } ?? "installtop history --jobs"
        return "; root's history may hold it: sudo \(command) (root's own), or sudo \(command)"
            + " --history-db \(SystemdUnit.serviceHistoryPath(environment: environment)) (the service's)"
    }
}
