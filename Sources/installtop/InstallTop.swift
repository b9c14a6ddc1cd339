import ArgumentParser

/// The `installtop` command: runs installs as child processes and monitors them.
@main
struct InstallTop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "installtop",
        abstract: "Run installations as child processes and watch them.",
        subcommands: [HistoryCommand.self]
    )
}
