import InstallEngine

/// What a package job asks its package manager for (`installtop apt …`, or a manifest job's
/// `apt:`): the same four requests for every package kind, each of which says them in its own
/// words (apt: `APTJobKind.summary(of:)` and `APTCommandLine`).
public enum PackageRequest: Sendable, Hashable {
    case install([String])
    case upgrade
    case fullUpgrade
    case remove([String])

    /// An uninstall job (rule 14's `endUninstall`) for removals, an install job otherwise.
    public var operation: UpdateOperation {
        if case .remove = self { return .uninstall }
        return .install
    }
}
