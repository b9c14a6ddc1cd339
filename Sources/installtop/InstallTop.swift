import ArgumentParser
import Foundation
import Glibc
import InstallEngine

/// The `installtop` command: runs installs as child processes and monitors them.
///
/// `main` is synchronous on purpose: the monitor's curses loop must own the main thread
/// (SWIFT-NCURSES.md), while the engine runs on the Swift concurrency pool.
@main
struct InstallTop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "installtop",
        abstract: "Run installations as child processes and watch them.",
        version: InstalltopVersion.current,
        subcommands: [
            RunCommand.self, DemoCommand.self, ValidateCommand.self, HistoryCommand.self, ThemesCommand.self,
            ServeCommand.self, SubmitCommand.self, AttachCommand.self, StatusCommand.self, AbortCommand.self,
            CleanupCommand.self, APTCommand.self, AnsibleCommand.self,
        ]
    )

    /// Parses and runs, mapping usage errors to exit status 2 as PRODUCT.md specifies
    /// (swift-argument-parser would use 64).
    static func main() {
        OpenFileLimit.raise()
        // A closed stdout, or a daemon client gone mid-write, must show up as EPIPE that the code
        // handles, never kill the process with its children running. Children get SIGPIPE back
        // (the spawn resets every signal).
        signal(SIGPIPE, SIG_IGN)
        FatalSignalCleanup.install()
        if let unknown = unknownCommand(in: CommandLine.arguments.dropFirst()) {
            FileHandle.standardError.write(Data((unknown + "\n").utf8))
            Foundation.exit(ExitStatus.invalidUsage.rawValue)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(ExitStatus.invalidUsage.rawValue)
            }
            exit(withError: error)
        }
    }

    /// The message for a first argument that is no command (`installtop rn m.yaml`), with the
    /// command it probably meant; `nil` when the first argument is a command or an option.
    static func unknownCommand(in arguments: ArraySlice<String>) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(word) else { return nil }
        let hint = EditDistance.closest(to: word, among: names).map { "; did you mean '\($0)'?" } ?? ""
        return "installtop: unknown command '\(word)'\(hint)\nThe commands: \(names.joined(separator: ", ")) (installtop --help says more)."
    }
}
