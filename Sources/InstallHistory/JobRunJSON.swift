#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// One job run as `installtop history --jobs --json` prints it (Documentation/UNDO.md): one object
/// per line, keys sorted, every field present (`null` when unknown, `NullWhenNil`):
/// `{"run":7,"kind":"apt","name":…,"operation":"install"|"uninstall","startedAt":…,"endedAt":…,
/// "result":…,"packages":[{"name":…,"action":"upgrade","oldVersion":…,"newVersion":…,"result":"succeeded"}],
/// "undoable":…,"notUndoableBecause":"…"|null,"undoneBy":9|null,"undoOf":null|7,"observed":false,"installRoot":null|"/"}`;
/// `observed` is true for a transaction installtop watched rather than ran (rule 28).
/// `installRoot` is the root a dnf run acted on (`/` for the system), `null` for apt runs.
/// `confirm` is a commit-confirmed run's window (`Confirm`), `null` for a run never armed.
///
/// `result` is the result's name as in the JSON events ("succeeded"), `null` while the run
/// goes on; `packages` are every package of the run's plan, each with its update's result (it
/// changed the package when that is `succeeded` or `succeededWithErrors`; a package dpkg left
/// half-way is `failed`, not missing); dates are RFC 3339 in UTC with milliseconds.
public struct JobRunJSON: Encodable, Sendable, Hashable {
    /// One package of the run's plan.
    public struct Package: Encodable, Sendable, Hashable {
        public var name: String
        public var action: String
        @NullWhenNil public var oldVersion: String?
        @NullWhenNil public var newVersion: String?
        /// Its update's result's name ("succeeded", "failed", "aborted", …).
        public var result: String
    }

    /// A commit-confirmed run's window: `{"state":"armed"|"confirmed"|"reverting"|"reverted"|"expired",
    /// "armedAt":…,"deadline":…,"decidedAt":…|null,"reason":…|null,"revertRun":9|null,
    /// "revertOnRegression":false,"regressions":[{"check":…,"before":…,"after":…}],
    /// "restartedServices":["nginx.service"]|null,"checkedAgainAt":…|null}` (`restartedServices`
    /// `null`: not recorded, systemd did not run; `checkedAgainAt`: when the checks were run again
    /// while the window was armed, as a patch night does after a host's reboot, `null` if never).
    public struct Confirm: Encodable, Sendable, Hashable {
        public var state: String
        public var armedAt: String
        public var deadline: String
        @NullWhenNil public var decidedAt: String?
        @NullWhenNil public var reason: String?
        @NullWhenNil public var revertRun: Int64?
        public var revertOnRegression: Bool
        public var regressions: [HealthRegression]
        @NullWhenNil public var restartedServices: [String]?
        @NullWhenNil public var checkedAgainAt: String?
    }

    public var run: Int64
    public var kind: String
    public var name: String
    public var operation: String
    @NullWhenNil public var startedAt: String?
    @NullWhenNil public var endedAt: String?
    @NullWhenNil public var result: String?
    public var packages: [Package]
    public var undoable: Bool
    @NullWhenNil public var notUndoableBecause: String?
    @NullWhenNil public var undoneBy: Int64?
    @NullWhenNil public var undoOf: Int64?
    public var observed: Bool
    @NullWhenNil public var installRoot: String?
    /// Its commit-confirmed window; `null` for a run that was not armed.
    @NullWhenNil public var confirm: Confirm?

    /// The JSON form of `run`.
    public init(_ run: JobRun) {
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        self.run = run.id
        kind = run.kind
        name = run.name
        operation = run.operation.name
        startedAt = run.startedAt.map { $0.formatted(format) }
        endedAt = run.endedAt.map { $0.formatted(format) }
        result = run.resultCode?.name
        packages = run.packages.map {
            Package(name: $0.name, action: $0.action.rawValue, oldVersion: $0.oldVersion, newVersion: $0.newVersion, result: $0.resultCode.name)
        }
        undoable = run.undoable
        notUndoableBecause = run.notUndoableBecause
        undoneBy = run.undoneBy
        undoOf = run.undoOf
        observed = run.observed
        installRoot = run.installRoot
        confirm = run.confirmWindow.map { window in
            Confirm(state: window.state.rawValue, armedAt: window.armedAt.formatted(format), deadline: window.deadline.formatted(format),
                    decidedAt: window.decidedAt.map { $0.formatted(format) }, reason: window.reason, revertRun: window.revertRun,
                    revertOnRegression: window.revertOnRegression, regressions: window.regressions,
                    restartedServices: window.restartedServices, checkedAgainAt: window.checkedAgainAt.map { $0.formatted(format) })
        }
    }

    /// The run as one line of JSON, without the newline.
    public static func line(for run: JobRun) throws -> String {
        try SortedKeysJSON.text(of: JobRunJSON(run))
    }
}
