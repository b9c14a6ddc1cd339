import ArgumentParser

/// `installtop KIND install PKG…` for a package kind, which fills in its options, its request
/// and how it runs (`PackageCommandKind`).
struct PackageInstallCommand<Kind: PackageCommandKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "install", abstract: "Install packages and what they depend on.")
    }

    @Argument(help: ArgumentHelp(Kind.installHelp), completion: Kind.installCompletion)
    var packages: [String]

    @OptionGroup var options: Kind.Options
    @OptionGroup var confirmation: ConfirmOptions

    func validate() throws {
        if packages.isEmpty { throw ValidationError("name at least one package to install") }
    }

    func run() throws {
        throw ExitCode(try Kind.run(Kind.install(packages), options: options, confirmation: confirmation).rawValue)
    }
}

extension PackageInstallCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { Kind.armableExitStatuses }
}
