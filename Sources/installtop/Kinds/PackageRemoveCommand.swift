import ArgumentParser

/// `installtop KIND remove PKG…` for a package kind, which fills in its options, its request
/// and how it runs (`PackageCommandKind`).
struct PackageRemoveCommand<Kind: PackageCommandKind>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "remove", abstract: "Remove packages (an uninstall job).")
    }

    @Argument(help: "The packages.", completion: Kind.removeCompletion)
    var packages: [String]

    @OptionGroup var options: Kind.Options
    @OptionGroup var confirmation: ConfirmOptions

    func validate() throws {
        if packages.isEmpty { throw ValidationError("name at least one package to remove") }
    }

    func run() throws {
        throw ExitCode(try Kind.run(Kind.remove(packages), options: options, confirmation: confirmation).rawValue)
    }
}

extension PackageRemoveCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { Kind.armableExitStatuses }
}
