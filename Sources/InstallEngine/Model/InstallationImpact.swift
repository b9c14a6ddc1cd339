/// How an update affects the system while it installs (WUA `InstallationImpact`).
public enum InstallationImpact: Int, Sendable, Hashable, CaseIterable {
    /// iiNormal
    case normal = 0
    /// iiMinor
    case minor = 1
    /// iiRequiresExclusiveHandling: must be installed alone (rule 2).
    case exclusive = 2

    /// The word used in manifests.
    public var name: String {
        switch self {
        case .normal: return "normal"
        case .minor: return "minor"
        case .exclusive: return "exclusive"
        }
    }
}
