import ArgumentParser

/// `installtop dnf remove PKG…`.
struct DNFRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove packages (an uninstall job).")

    @Argument(help: "The packages.")
    var packages: [String]

    @OptionGroup var options: DNFOptions
    @OptionGroup var confirmation: ConfirmOptions

    func validate() throws {
        if packages.isEmpty { throw ValidationError("name at least one package to remove") }
    }

    func run() throws {
        if let seconds = try confirmation.seconds {
            throw ExitCode(CommitConfirmedSession(job: DNFArmedJob(request: .remove(packages), options: options), confirm: confirmation, seconds: seconds)
                .run().rawValue)
        }
        throw ExitCode(DNFSession(request: .remove(packages), options: options).run().rawValue)
    }
}

extension DNFRemoveCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { DNFExitStatuses.armable }
}
