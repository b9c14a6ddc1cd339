import InstallEngine

/// What a dnf job asks dnf for (`installtop dnf …`, a manifest job's `dnf:`), in dnf's words.
public enum DNFRequest: Sendable, Hashable {
    case install([String])
    /// The packages named, or every package that has a newer version when none is.
    case upgrade([String])
    case remove([String])

    /// An uninstall job (rule 14's `endUninstall`) for removals, an install job otherwise.
    public var operation: UpdateOperation {
        if case .remove = self { return .uninstall }
        return .install
    }

    /// The request as the helper's arguments: `install a b`, `upgrade`.
    var arguments: [String] {
        switch self {
        case .install(let packages): return ["install"] + packages
        case .upgrade(let packages): return ["upgrade"] + packages
        case .remove(let packages): return ["remove"] + packages
        }
    }

    /// How the operator would say it to dnf: `dnf install curl`, `dnf upgrade`.
    public var summary: String { (["dnf"] + arguments).joined(separator: " ") }
}
