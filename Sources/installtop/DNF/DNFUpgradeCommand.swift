import ArgumentParser

/// `installtop dnf upgrade [PKG…]`.
struct DNFUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade", abstract: "Upgrade the packages named, or every package that has a newer version.")

    @Argument(help: "The packages; none upgrades every one.")
    var packages: [String] = []

    @OptionGroup var options: DNFOptions
    @OptionGroup var confirmation: ConfirmOptions

    func run() throws {
        if let seconds = try confirmation.seconds {
            throw ExitCode(CommitConfirmedSession(job: DNFArmedJob(request: .upgrade(packages), options: options), confirm: confirmation, seconds: seconds)
                .run().rawValue)
        }
        throw ExitCode(DNFSession(request: .upgrade(packages), options: options).run().rawValue)
    }
}

extension DNFUpgradeCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { DNFExitStatuses.armable }
}
