import InstallDrivers

/// Why a dnf job cannot be armed (`--confirm`): its revert, the run's undo
/// (`DNFUndoRequest`), could not be planned, or a version it takes away could not be kept for
/// it. Decided from dnf's plan and the root's rpm database before anything runs
/// (Documentation/COMMIT-CONFIRMED.md); apt's rules are `ArmingRefusal`.
enum DNFArmingRefusal {
    /// Name prefixes of packages that take effect only after a reboot: the kernel's packages
    /// (`kernel`, `kernel-core`, `kernel-modules`…) and the CPU's microcode.
    static let rebootOnlyPrefixes = ["kernel", "microcode_ctl"]

    /// Why `items` cannot be armed, one line a package; empty when they can.
    /// - Parameters:
    ///   - installed: the root's rpm database now: every installed version of each package of
    ///     the plan, by `name.arch` (`DNFRPMDatabase.installed`).
    ///   - unrebuildable: the files that keep a package's installed version from being rebuilt
    ///     (`DNFRPMDatabase.unrebuildable`), by name.
    static func reasons(_ items: [DNFPlanItem], installed: [String: [String]], unrebuildable: [String: [String]]) -> [String] {
        items.compactMap { item in
            // The revert removes what the job installs: dnf refuses that for a protected package.
            if item.isProtected && item.action == .install {
                return "\(item.name) is protected (dnf refuses to remove it: protected_packages, or the running kernel): "
                    + "its install cannot be armed, since the revert would remove it"
            }
            if item.isProtected && item.isRemoval {
                return "\(item.name) is protected (protected_packages, or the running kernel): its removal cannot be armed "
                    + "(the revert itself may need it)"
            }
            guard item.action != .install, let old = item.oldVersion else { return nil }
            let now = installed[item.nameArch] ?? []
            // An upgrade, downgrade or reinstall replaces the one version installed; with two
            // (a duplicate) the undo could not say which to put back.
            let kept = item.isRemoval ? now.contains(old) : now == [old]
            guard kept else {
                let has = now.isEmpty ? "none of it" : now.sorted().joined(separator: " and ")
                return "\(item.name) cannot be kept for the revert: the rpm database has \(has) (\(item.nameArch)), not \(old) alone"
            }
            if let files = unrebuildable[item.name], !files.isEmpty {
                // apt's rule too (a package without its file list): the installed files must
                // allow a rebuild, whether or not a repository still offers the version.
                return "\(item.name) \(old) cannot be kept for the revert: \(files.joined(separator: ", ")) (rpm -V), "
                    + "so it cannot be rebuilt from its installed files"
            }
            return nil
        }
    }

    /// The packages of `items` that take their version away, whose installed files
    /// `reasons` needs checked.
    static func replaced(_ items: [DNFPlanItem]) -> [String] {
        Array(Set(items.filter { $0.action != .install && $0.oldVersion != nil }.map(\.name))).sorted()
    }

    /// The packages of `items` that take effect only after a reboot.
    static func rebootOnly(_ items: [DNFPlanItem]) -> [String] {
        items.map(\.name).filter { name in rebootOnlyPrefixes.contains { name.hasPrefix($0) } }
    }
}
