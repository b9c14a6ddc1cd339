import ArgumentParser

/// `installtop apt install PKG…`.
struct APTInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "install", abstract: "Install packages and what they depend on.")

    @Argument(help: "The packages.", completion: CompletionSources.package)
    var packages: [String]

    @OptionGroup var options: APTOptions
    @OptionGroup var confirmation: ConfirmOptions

    func validate() throws {
        if packages.isEmpty { throw ValidationError("name at least one package to install") }
    }

    func run() throws {
        if let seconds = try confirmation.seconds {
            throw ExitCode(CommitConfirmedSession(request: .install(packages), options: options, confirm: confirmation, seconds: seconds).run().rawValue)
        }
        throw ExitCode(APTSession(request: .install(packages), options: options).run().rawValue)
    }
}
