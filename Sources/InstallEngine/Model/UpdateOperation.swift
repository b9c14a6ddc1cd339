/// Whether a job installs or uninstalls its updates. Raw values are WUA's `UpdateOperation`
/// (`uoInstallation` = 1, `uoUninstallation` = 2), which the history records.
public enum UpdateOperation: Int, Sendable, Hashable, CaseIterable {
    case install = 1
    case uninstall = 2

    /// The word used in manifests, JSON events and `INSTALLTOP_OPERATION`.
    public var name: String {
        switch self {
        case .install: return "install"
        case .uninstall: return "uninstall"
        }
    }
}
