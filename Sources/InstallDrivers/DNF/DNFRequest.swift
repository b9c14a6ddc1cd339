import InstallEngine

/// What a dnf job asks dnf for (`installtop dnf …`, a manifest job's `dnf:`), in dnf's words.
public enum DNFRequest: Sendable, Hashable {
    case install([String])
    /// The packages named, or every package that has a newer version when none is.
    case upgrade([String])
    case remove([String])
    /// Puts back what job run `run` changed (`installtop dnf undo`): each rpm file of
    /// `restoring` installed, downgraded or upgraded to, each `name.arch` of `removing` removed (dnf's
    /// `-name.arch` items of the helper's `undo`).
    case undo(run: Int, restoring: [String], removing: [String])

    /// An uninstall job (rule 14's `endUninstall`) for removals and undos, an install job
    /// otherwise.
    public var operation: UpdateOperation {
        switch self {
        case .remove, .undo: .uninstall
        case .install, .upgrade: .install
        }
    }

    /// The request as the helper's arguments: `install a b`, `upgrade`.
    var arguments: [String] {
        switch self {
        case .install(let packages): return ["install"] + packages
        case .upgrade(let packages): return ["upgrade"] + packages
        case .remove(let packages): return ["remove"] + packages
        case .undo(_, let restoring, let removing): return ["undo"] + restoring + removing.map { "-" + $0 }
        }
    }

    /// How the operator would say it: `dnf install curl`, `dnf upgrade`, `dnf undo 3`.
    public var summary: String {
        if case .undo(let run, _, _) = self { return "dnf undo \(run)" }
        return (["dnf"] + arguments).joined(separator: " ")
    }
}
