import ArgumentParser

/// `installtop hooks install|status|remove`: the apt and dpkg hooks that report every
/// transaction on the machine to the engine (Documentation/OBSERVED-JOBS.md).
struct HooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: "Install, check or remove the apt and dpkg hooks that report every install to the engine.",
        subcommands: [HooksInstallCommand.self, HooksStatusCommand.self, HooksRemoveCommand.self, HooksKeepCommand.self]
    )
}
