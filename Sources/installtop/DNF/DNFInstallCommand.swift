import ArgumentParser

/// `installtop dnf install PKG…`.
struct DNFInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "install", abstract: "Install packages and what they depend on.")

    @Argument(help: "The packages (a name, or name-version to pick one).")
    var packages: [String]

    @OptionGroup var options: DNFOptions
    @OptionGroup var confirmation: ConfirmOptions

    func validate() throws {
        if packages.isEmpty { throw ValidationError("name at least one package to install") }
    }

    func run() throws {
        if let seconds = try confirmation.seconds {
            throw ExitCode(CommitConfirmedSession(job: DNFArmedJob(request: .install(packages), options: options), confirm: confirmation, seconds: seconds)
                .run().rawValue)
        }
        throw ExitCode(DNFSession(request: .install(packages), options: options).run().rawValue)
    }
}

extension DNFInstallCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { DNFExitStatuses.armable }
}
