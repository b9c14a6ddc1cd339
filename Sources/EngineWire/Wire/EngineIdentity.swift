#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// What an engine says of itself in its reply to `about`: which process it is, where it
/// records, and which apt root its package jobs and observed jobs are of. `installtop apt`
/// asks it to decide whether its job belongs in that engine (Documentation/OBSERVED-JOBS.md "One transaction, one
/// record"): only when the record and the root would be the same.
public struct EngineIdentity: Sendable, Hashable {
    /// The engine's process id.
    public var pid: Int32
    /// The user it runs as: only that user's jobs (and root's engine's, root's) may go there.
    public var uid: UInt32
    /// The history database it records into (absolute); `nil` when it records nothing
    /// (`--no-history`, or a history it could not open).
    public var history: String?
    /// The apt configuration its apt root is read from (`--apt-config`, else the `APT_CONFIG`
    /// it was started with), absolute; `nil` for this system's own apt.
    public var aptConfig: String?

    public init(pid: Int32 = getpid(), uid: UInt32 = geteuid(), history: String?, aptConfig: String?) {
        self.pid = pid
        self.uid = uid
        self.history = history
        self.aptConfig = aptConfig
    }

    /// The apt root a process acts on, as engines compare it: `given` (`--apt-config`), else a
    /// non-empty `APT_CONFIG` of `environment`, made absolute; `nil` for this system's own apt.
    public static func aptRoot(given: String?, environment: [String: String]) -> String? {
        (given ?? environment["APT_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }).map(absolute)
    }

    /// `path` made absolute against the working directory and without `.` and `..`, so that two
    /// processes started in different folders compare the same file the same.
    public static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The members of `about`'s reply.
    public var fields: [String: JSONValue] {
        ["pid": .integer(Int(pid)), "uid": .integer(Int(uid)), "history": history.map(JSONValue.string) ?? .null, "aptConfig": aptConfig.map(JSONValue.string) ?? .null]
    }

    /// Reads `about`'s reply.
    /// - Throws: `badArgument` naming the member at fault.
    public init(reply: WireReply) throws(WireError) {
        let object = WireObject(JSONMembers(reply.fields), context: "about")
        pid = Int32(clamping: try object.int("pid"))
        uid = UInt32(clamping: try object.int("uid"))
        history = try object.optionalString("history")
        aptConfig = try object.optionalString("aptConfig")
    }
}
