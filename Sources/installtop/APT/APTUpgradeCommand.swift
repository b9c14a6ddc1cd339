import ArgumentParser

/// `installtop apt upgrade`.
struct APTUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "upgrade", abstract: "Upgrade every package that can be, installing or removing none (apt-get upgrade).")

    @OptionGroup var options: APTOptions

    func run() throws {
        throw ExitCode(APTSession(request: .upgrade, options: options).run().rawValue)
    }
}
