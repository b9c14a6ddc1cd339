#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// What a package job's run records when it begins, so that whoever opens the history after
/// its engine died can settle it from dpkg (`HistoryStore.recoverInterruptedRuns`): the engine
/// that records it, the packages the transaction is to change, and the dpkg that changes them.
/// apt and dpkg go on without an engine that was killed; the run is then ended from dpkg's final
/// state and log, with a row for every package of the plan.
public struct JobRunOrigin: Sendable, Hashable {
    /// The process that records the run; `nil` when no engine stays with it (a hook's keeping).
    public var writer: ProcessIdentity?
    /// The transaction's packages, as planned.
    public var plan: [PackageChange]
    /// dpkg's database the transaction changes (`/var/lib/dpkg`); `nil` when not known.
    public var administrativeDirectory: String?
    /// The log dpkg writes there (`/var/log/dpkg.log`); `nil` when not known.
    public var dpkgLog: String?
    /// The root a dnf transaction acts on (`--installroot`, `/` for the system), where its undo
    /// acts; `nil` for apt's.
    public var installRoot: String?

    public init(writer: ProcessIdentity?, plan: [PackageChange], administrativeDirectory: String?, dpkgLog: String?,
                installRoot: String? = nil) {
        self.writer = writer
        self.plan = plan
        self.administrativeDirectory = administrativeDirectory
        self.dpkgLog = dpkgLog
        self.installRoot = installRoot
    }

    private struct PlannedChange: Codable {
        var package: String
        var action: String
        var oldVersion: String?
        var newVersion: String?
    }

    /// The plan as the `jobRun.plan` column keeps it: a JSON array of `{package, action,
    /// oldVersion, newVersion}`.
    var planText: String {
        let changes = plan.map { PlannedChange(package: $0.package, action: $0.action.rawValue, oldVersion: $0.oldVersion, newVersion: $0.newVersion) }
        // Strings only: encoding cannot fail.
        return (try? SortedKeysJSON.text(of: changes)) ?? "[]"
    }

    /// The plan the column's text names; empty for no text or text of another shape.
    static func plan(fromText text: String?) -> [PackageChange] {
        guard let text, let changes = try? JSONDecoder().decode([PlannedChange].self, from: Data(text.utf8)) else { return [] }
        return changes.compactMap { change in
            PackageChange.Action(rawValue: change.action).map {
                PackageChange(package: change.package, action: $0, oldVersion: change.oldVersion, newVersion: change.newVersion)
            }
        }
    }
}
