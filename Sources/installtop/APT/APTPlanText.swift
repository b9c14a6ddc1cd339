import InstallDrivers
import InstallEngine

/// An apt plan as text for the operator, in apt's own shape: what will be installed, upgraded
/// and removed (with versions, Essential packages marked), a warning naming the Essential
/// packages it upgrades or removes, then the counts and the download size.
enum APTPlanText {
    static func text(of plan: APTPlan) -> String {
        var lines: [String] = []
        let groups: [(String, (PackageChange) -> Bool)] = [
            ("will be INSTALLED", { $0.action == .install }), ("will be upgraded", { $0.action == .upgrade && !$0.isDowngrade }),
            ("will be DOWNGRADED", \.isDowngrade), ("will be reinstalled", { $0.action == .reinstall }),
            ("will be REMOVED", \.isRemoval),
        ]
        for (verb, belongs) in groups {
            let changes = plan.changes.filter(belongs)
            guard !changes.isEmpty else { continue }
            lines.append("The following packages \(verb):")
            for change in changes { lines.append("  " + change.title + (change.essential ? " [essential]" : "")) }
        }
        if let warning = PackageChange.essentialWarning(plan.changes) { lines.append("WARNING: this " + warning + ".") }
        lines.append(plan.summary + ".")
        return lines.joined(separator: "\n")
    }

    /// What to say when apt has nothing to do.
    static func nothingToDo(for request: PackageRequest) -> String {
        switch request {
        case .upgrade, .fullUpgrade: return "Nothing to upgrade: every package is at its newest version."
        case .install: return "Nothing to install: every package named is already at its newest version."
        case .remove: return "Nothing to remove: none of the packages named is installed."
        case .undo(let run, _, _): return "Nothing to undo: every package of run \(run) is as it was before it."
        // apt plans no reinstall of a version it cannot download ("Reinstallation of P is not possible").
        case .reinstall: return "Nothing to reinstall: apt can download none of the packages named at the version installed."
        }
    }
}
