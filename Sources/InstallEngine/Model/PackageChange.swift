/// What a package job does to one package (apt's simulation says it: `Inst`, `Remv`, `Purg`):
/// the update's name, versions and action, for the title, the JSON events and the history.
public struct PackageChange: Sendable, Hashable {
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Not installed before.
        case install
        /// Installed at another version before (`Inst P [old] (new …)`), up or down.
        case upgrade
        /// The same version again (`apt-get install --reinstall`).
        case reinstall
        case remove
        /// Removed with its configuration files.
        case purge
    }

    /// The package name, without `:arch` (as APT's Status-Fd names it).
    public var package: String
    public var action: Action
    /// The installed version, for upgrades, reinstalls and removals.
    public var oldVersion: String?
    /// The version to install; `nil` for removals.
    public var newVersion: String?
    /// The architecture apt names (`amd64`, `all`), when it names one.
    public var architecture: String?
    /// The installed package is marked `Essential: yes` (perl-base, libc-bin, dpkg): the system
    /// may not work without it, so removing or upgrading it is shown as such. `false` for a
    /// package not installed before, and when dpkg's database could not say.
    public var essential: Bool

    public init(
        package: String, action: Action, oldVersion: String? = nil, newVersion: String? = nil, architecture: String? = nil,
        essential: Bool = false
    ) {
        self.package = package
        self.action = action
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.architecture = architecture
        self.essential = essential
    }

    /// The title an update gets: `openssl 3.0.14 → 3.0.15`, `curl 7.88.1`, `telnet 0.17 (remove)`.
    public var title: String {
        switch action {
        case .install: return [package, newVersion].compactMap { $0 }.joined(separator: " ")
        case .upgrade: return "\(package) \(oldVersion ?? "?") → \(newVersion ?? "?")"
        case .reinstall: return [package, newVersion ?? oldVersion, "(reinstall)"].compactMap { $0 }.joined(separator: " ")
        case .remove: return [package, oldVersion, "(remove)"].compactMap { $0 }.joined(separator: " ")
        case .purge: return [package, oldVersion, "(purge)"].compactMap { $0 }.joined(separator: " ")
        }
    }

    /// Whether the job that runs it is an uninstall.
    public var isRemoval: Bool { action == .remove || action == .purge }

    /// An `upgrade` to an older version (an undo putting back a kept version; `apt-get install
    /// --allow-downgrades`): apt says `Inst` for both directions, Debian's version order tells.
    public var isDowngrade: Bool {
        guard action == .upgrade, let oldVersion, let newVersion else { return false }
        return DebianVersion.compare(newVersion, oldVersion) < 0
    }
}

extension PackageChange {
    /// Debian package name prefixes that take effect only after a reboot (a kernel, its
    /// modules, microcode): the checks of a commit-confirmed job cannot judge them.
    public static let rebootOnlyPrefixes = ["linux-image-", "linux-modules-", "intel-microcode", "amd64-microcode"]

    /// Whether the package takes effect only after a reboot (`rebootOnlyPrefixes`).
    public var takesEffectOnlyAfterReboot: Bool { Self.rebootOnlyPrefixes.contains { package.hasPrefix($0) } }

    /// What an armed (commit-confirmed) plan says of `package`, which takes effect only after a
    /// reboot: the checks cannot judge it, and what a revert does to it.
    public static func rebootOnlyNote(_ package: String) -> String {
        "\(package) takes effect only after a reboot: the checks cannot judge it; a revert puts its old version back on disk, "
            + "and the running kernel stays as it is until the next reboot either way"
    }

    /// `upgrades an Essential package: perl-base`, `removes and upgrades 2 Essential packages:
    /// dpkg, perl-base`: what `changes` do to Essential packages, every one named; `nil` when
    /// they touch none. The plan printed off a terminal and the monitor's question both say it.
    /// A version going back is said a downgrade.
    public static func essentialWarning(_ changes: [PackageChange]) -> String? {
        let essential = changes.filter(\.essential)
        guard !essential.isEmpty else { return nil }
        let verbs: [(String, (PackageChange) -> Bool)] = [
            ("removes", \.isRemoval), ("upgrades", { $0.action == .upgrade && !$0.isDowngrade }), ("downgrades", \.isDowngrade),
            ("reinstalls", { $0.action == .reinstall }),
        ]
        let said = verbs.filter { verb in essential.contains(where: verb.1) }.map(\.0)
        let packages = essential.count == 1 ? "an Essential package" : "\(essential.count) Essential packages"
        return "\(said.joined(separator: " and ")) \(packages): " + essential.map(\.package).joined(separator: ", ")
    }
}
