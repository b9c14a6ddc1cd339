import InstallDrivers

/// A dnf plan as text for the operator, in dnf's own shape: what will be installed, upgraded,
/// downgraded, reinstalled and removed (with versions and architectures), then the counts and
/// the download size.
enum DNFPlanText {
    static func text(of plan: DNFPlan) -> String {
        var lines: [String] = []
        let groups: [(String, DNFPlanItem.Action)] = [
            ("Installing", .install), ("Upgrading", .upgrade), ("Downgrading", .downgrade), ("Reinstalling", .reinstall),
            ("Removing", .remove), ("Obsoleting (removed)", .obsoleted),
        ]
        for (heading, action) in groups {
            let items = plan.items.filter { $0.action == action }
            guard !items.isEmpty else { continue }
            lines.append(heading + ":")
            for item in items {
                let note = item.isDependency ? " (no longer needed)" : ""
                lines.append("  \(item.title) [\(item.arch)\(item.repository.map { ", " + $0 } ?? "")]\(note)")
            }
        }
        lines.append(plan.summary + ".")
        return lines.joined(separator: "\n")
    }

    /// What to say when dnf has nothing to do.
    static func nothingToDo(for request: DNFRequest) -> String {
        switch request {
        case .upgrade: return "Nothing to upgrade: every package is at its newest version."
        case .install: return "Nothing to install: every package named is already installed."
        case .remove: return "Nothing to remove: none of the packages named is installed."
        case .undo(let run, _, _): return "Nothing to undo: every package is already as it was before run \(run)."
        }
    }
}
