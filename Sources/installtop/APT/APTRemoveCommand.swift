import ArgumentParser

/// `installtop apt remove PKG…`.
struct APTRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove packages (an uninstall job).")

    @Argument(help: "The packages.", completion: CompletionSources.installedPackage)
    var packages: [String]

    @OptionGroup var options: APTOptions
    @OptionGroup var confirmation: ConfirmOptions

    func validate() throws {
        if packages.isEmpty { throw ValidationError("name at least one package to remove") }
    }

    func run() throws {
        if let seconds = try confirmation.seconds {
            throw ExitCode(CommitConfirmedSession(request: .remove(packages), options: options, confirm: confirmation, seconds: seconds).run().rawValue)
        }
        throw ExitCode(APTSession(request: .remove(packages), options: options).run().rawValue)
    }
}
