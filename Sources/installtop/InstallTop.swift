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
        subcommands: [
            RunCommand.self, DemoCommand.self, ValidateCommand.self, HistoryCommand.self, ThemesCommand.self,
            ServeCommand.self, SubmitCommand.self, AttachCommand.self, StatusCommand.self, AbortCommand.self,
            CleanupCommand.self,
        ]
    )

    /// Parses and runs, mapping usage errors to exit status 2 as PRODUCT.md specifies
    /// (swift-argument-parser would use 64).
    static func main() {
        OpenFileLimit.raise()
        // A closed stdout must show up as EPIPE that the output code handles, never kill the
        // process with its children running. Children get SIGPIPE back (the spawn resets signals).
        signal(SIGPIPE, SIG_IGN)
        FatalSignalCleanup.install()
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
}
