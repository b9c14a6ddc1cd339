import InstallEngine

/// What a package job asks its package manager for (`installtop apt …`, or a manifest job's
/// `apt:`): the same requests for every package kind, each of which says them in its own
/// words (apt: `APTJobKind.summary(of:)` and `APTCommandLine`).
public enum PackageRequest: Sendable, Hashable {
    case install([String])
    case upgrade
    case fullUpgrade
    case remove([String])
    /// Undo of job run `run` (Documentation/UNDO.md): install the kept .debs at `debs` (absolute
    /// paths; downgrades allowed) and remove `removing`, in one transaction.
    case undo(run: Int, debs: [String], removing: [String])
    /// The same versions again (`installtop apt repair RUN`, or a manifest's `reinstall:`):
    /// each of `packages` is a name, `name=version`, or the path of a local .deb. A repair of job
    /// run `repairing` names the versions dpkg has, so that apt never takes a newer one for it.
    case reinstall(packages: [String], repairing: Int?)

    /// The run an undo undoes; `nil` for every other request.
    public var undoneRun: Int? {
        if case .undo(let run, _, _) = self { return run }
        return nil
    }

    /// An uninstall job (rule 14's `endUninstall`) for removals and undos, an install job otherwise.
    public var operation: UpdateOperation {
        switch self {
        case .remove, .undo: return .uninstall
        case .install, .upgrade, .fullUpgrade, .reinstall: return .install
        }
    }
}
