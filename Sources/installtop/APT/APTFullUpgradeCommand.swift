import ArgumentParser

/// `installtop apt full-upgrade`.
struct APTFullUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "full-upgrade", abstract: "Upgrade everything, installing and removing packages as needed (apt-get dist-upgrade).")

    @OptionGroup var options: APTOptions

    func run() throws {
        throw ExitCode(APTSession(request: .fullUpgrade, options: options).run().rawValue)
    }
}
