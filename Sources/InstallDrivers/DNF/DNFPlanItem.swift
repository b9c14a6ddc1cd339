import InstallEngine

/// One package of a dnf transaction as the helper resolved it (`{"event":"item",…}`), before
/// anything runs.
public struct DNFPlanItem: Sendable, Hashable {
    /// dnf's words for what happens to the package.
    public enum Action: String, Sendable, Hashable {
        case install, upgrade, downgrade, reinstall, remove
        /// Removed because a package of the transaction obsoletes it (`Obsoletes:`).
        case obsoleted
    }

    public var action: Action
    public var name: String
    public var arch: String
    /// `[epoch:]version-release` installed before; `nil` for an install.
    public var oldVersion: String?
    /// The version the transaction installs; `nil` for a removal.
    public var newVersion: String?
    /// What the package's download weighs; `nil` for a removal.
    public var size: Int64?
    /// The repository it comes from.
    public var repository: String?
    /// Removed as what a removed package needed (dnf's clean_requirements_on_remove).
    public var isDependency: Bool
    /// The package that obsoletes it, for `obsoleted`.
    public var obsoletedBy: String?
    /// dnf refuses to remove it: a name of its `protected_packages`, or the running kernel.
    /// A transaction whose undo would remove it cannot be armed (`--confirm`).
    public var isProtected: Bool

    public init(action: Action, name: String, arch: String, oldVersion: String? = nil, newVersion: String? = nil,
                size: Int64? = nil, repository: String? = nil, isDependency: Bool = false, obsoletedBy: String? = nil,
                isProtected: Bool = false) {
        self.action = action
        self.name = name
        self.arch = arch
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.size = size
        self.repository = repository
        self.isDependency = isDependency
        self.obsoletedBy = obsoletedBy
        self.isProtected = isProtected
    }

    /// dnf's identity of the package, `name.arch`.
    public var nameArch: String { "\(name).\(arch)" }

    /// Whether the package leaves the system.
    public var isRemoval: Bool { action == .remove || action == .obsoleted }

    /// What the history and the monitor's title say of it.
    public var change: PackageChange {
        let action: PackageChange.Action
        switch self.action {
        case .install: action = .install
        case .upgrade, .downgrade: action = .upgrade
        case .reinstall: action = .reinstall
        case .remove, .obsoleted: action = .remove
        }
        return PackageChange(package: name, action: action, oldVersion: oldVersion, newVersion: newVersion, architecture: arch)
    }

    /// The update's title: `openssl 3.0.7-24 → 3.0.7-25`, `curl 8.2.1-1`, `telnet 0.17-1 (remove)`,
    /// `lab-old 1.0-1 (obsoleted by lab-new)`.
    public var title: String {
        if action == .obsoleted {
            return [name, oldVersion].compactMap { $0 }.joined(separator: " ") + " (obsoleted" + (obsoletedBy.map { " by \($0)" } ?? "") + ")"
        }
        return change.title
    }

    /// The token `--expect` gives the helper for it: `upgrade:lab-a.noarch:1.0-1:2.0-1`, so that
    /// the transaction run is the one planned.
    var expectation: String {
        [action.rawValue, nameArch, oldVersion ?? "", newVersion ?? ""].joined(separator: ":")
    }
}
