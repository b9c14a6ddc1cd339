/// What a package job asks apt for (`installtop apt …`, or a manifest job's `apt:`).
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

    /// apt-get's words for it.
    public var aptArguments: [String] {
        switch self {
        case .install(let packages): return ["install"] + packages
        case .upgrade: return ["upgrade"]
        case .fullUpgrade: return ["dist-upgrade"]
        case .remove(let packages): return ["remove"] + packages
        }
    }

    /// How the operator would say it: `apt install curl openssl`, `apt upgrade`.
    public var summary: String {
        switch self {
        case .install(let packages): return (["apt install"] + packages).joined(separator: " ")
        case .upgrade: return "apt upgrade"
        case .fullUpgrade: return "apt full-upgrade"
        case .remove(let packages): return (["apt remove"] + packages).joined(separator: " ")
        }
    }
}
