import ArgumentParser

/// `installtop KIND upgrade …` for a package kind, which fills in its words and arguments and
/// how an upgrade runs (`PackageCommandKind`: `upgradeAbstract`, `upgradeDiscussion`,
/// `UpgradeArguments` before the options, `UpgradeExtras` after them, `validateUpgrade`,
/// `upgrade`): apt's takes no packages and rolls out over hosts with `--hosts`, dnf's takes
/// the packages to upgrade.
struct PackageUpgradeCommand<Kind: PackageCommandKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "upgrade", abstract: Kind.upgradeAbstract, discussion: Kind.upgradeDiscussion)
    }

    @OptionGroup var arguments: Kind.UpgradeArguments
    @OptionGroup var options: Kind.Options
    @OptionGroup var confirmation: ConfirmOptions
    @OptionGroup var extras: Kind.UpgradeExtras

    func validate() throws {
        try Kind.validateUpgrade(extras, options: options)
    }

    func run() throws {
        throw ExitCode(try Kind.upgrade(arguments, options: options, confirmation: confirmation, extras: extras).rawValue)
    }
}

extension PackageUpgradeCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { Kind.armableExitStatuses }
}
