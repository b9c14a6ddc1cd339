import ArgumentParser

/// `installtop hosts …`: what the hosts of a fleet have for the board.
struct HostsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hosts",
        abstract: "Check what the hosts of a fleet have for the board (installtop, its engine, the hooks).",
        subcommands: [HostsCheckCommand.self]
    )
}

extension HostsCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] {
        [(ExitStatus.invalidUsage.rawValue, "invalid usage (no subcommand, an unknown one)")]
    }
}
