import ArgumentParser
import InstallDrivers

/// `installtop dnf upgrade [PKG…]`.
struct DNFUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade", abstract: "Upgrade the packages named, or every package that has a newer version.")

    @Argument(help: "The packages; none upgrades every one.")
    var packages: [String] = []

    @OptionGroup var options: DNFOptions
    @OptionGroup var confirmation: ConfirmOptions

    func run() throws {
        throw ExitCode(try DNFPackageCommands.run(.upgrade(packages), options: options, confirmation: confirmation).rawValue)
    }
}

extension DNFUpgradeCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { DNFExitStatuses.armable }
}
