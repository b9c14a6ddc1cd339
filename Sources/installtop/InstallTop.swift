import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import HookRelay
import InstallEngine

/// The `installtop` command: runs installs as child processes and monitors them.
///
/// `main` is synchronous on purpose: the monitor's curses loop must own the main thread
/// (Documentation/TERMINAL.md), while the engine runs on the Swift concurrency pool.
@main
struct InstallTop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "installtop",
        abstract: "Run installations as child processes and watch them.",
        version: InstalltopVersion.current,
        subcommands: [
            RunCommand.self, DemoCommand.self, ValidateCommand.self, HistoryCommand.self, ReplayCommand.self, ThemesCommand.self,
            ServeCommand.self, SubmitCommand.self, AttachCommand.self, StatusCommand.self, AbortCommand.self,
            CleanupCommand.self, ConfirmCommand.self, BridgeCommand.self, EnrollCommand.self, HostsCommand.self, APTCommand.self, DNFCommand.self, AnsibleCommand.self, DriveCommand.self, HooksCommand.self,
            WatchCommand.self, PendingCommand.self, PatchCommand.self, RestartsCommand.self, RestartServicesCommand.self, GenerateManualCommand.self,
        ]
    )

    /// Parses and runs, mapping usage errors to exit status 2 as Documentation/EXIT-STATUS.md says
    /// (swift-argument-parser would use 64).
    static func main() {
        // The package's `installtop-relay` is a link to this program: a hook's relay does
        // nothing else, before anything else (it starts for every dpkg call).
        if let program = CommandLine.arguments.first, HookRelay.isInvoked(as: program) {
            HookRelay.run(CommandLine.arguments.dropFirst())
        }
        OpenFileLimit.raise()
        // A closed stdout, or a daemon client gone mid-write, must show up as EPIPE that the code
        // handles, never kill the process with its children running. Children get SIGPIPE back
        // (the spawn resets every signal).
        signal(SIGPIPE, SIG_IGN)
        FatalSignalCleanup.install()
        if let unknown = unknownCommand(in: CommandLine.arguments.dropFirst()) {
            StandardOutput.stderr.line(unknown)
            Glibc.exit(ExitStatus.invalidUsage.rawValue)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            // A parse or `validate()` error names the command it is about: its usage is in the message.
            exitOnUsageError(error, message: fullMessage(for: error))
            exit(withError: error)
        }
        do {
            try command.run()
        } catch {
            // Thrown by `run()` (an inventory that cannot be read, more hosts than one): the
            // root alone would print `Usage: installtop <subcommand>`.
            exitOnUsageError(error, message: usageErrorMessage(error, of: type(of: command)))
            exit(withError: error)
        }
    }

    /// Prints `message` and exits 2 when `error` is a usage error; returns otherwise.
    private static func exitOnUsageError(_ error: any Error, message: @autoclosure () -> String) {
        guard exitCode(for: error) == .validationFailure else { return }
        StandardOutput.stderr.line(message())
        Glibc.exit(ExitStatus.invalidUsage.rawValue)
    }

    /// `error` as swift-argument-parser words a usage error of `command` found while parsing:
    /// the error, the command's usage (`Usage: installtop apt install <packages> ...`) and where
    /// its help is. A command outside installtop's own (one of the parser's) gets the root's.
    private static func usageErrorMessage(_ error: any Error, of command: any ParsableCommand.Type) -> String {
        guard let path = commandPath(to: command)?.map({ $0._commandName }).joined(separator: " ") else { return fullMessage(for: error) }
        let usage = usageString(for: command).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n       ")
        return "Error: \(message(for: error))\nUsage: \(usage)\n  See '\(path) --help' for more information."
    }

    /// The commands from this one down to `command` (`installtop`, `apt`, `install`); `nil`
    /// when `command` is not among them.
    private static func commandPath(to command: any ParsableCommand.Type, from root: any ParsableCommand.Type = InstallTop.self)
        -> [any ParsableCommand.Type]? {
        if root == command { return [root] }
        for subcommand in root.configuration.subcommands {
            if let path = commandPath(to: command, from: subcommand) { return [root] + path }
        }
        return nil
    }

    /// The message for a first argument that is no command (`installtop rn m.yaml`), with the
    /// command it probably meant, or an apt verb (`installtop install cowsay`) with the `apt`
    /// command that does it, or a typo of one (`installtop instal cowsay`) with the `apt` command it
    /// probably meant; likewise for `apt`'s own commands (`installtop apt instal cowsay`).
    /// `nil` when the arguments name commands, or an option comes first.
    static func unknownCommand(in arguments: ArraySlice<String>) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-") else { return nil }
        // Hidden commands (run by installtop itself) are known, never offered.
        let aptNames = APTCommand.configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
        if word == APTCommand._commandName {
            let next = arguments.dropFirst().first
            let hidden = APTCommand.configuration.subcommands.filter { !$0.configuration.shouldDisplay }.map { $0._commandName }
            return next.map(hidden.contains) == true ? nil : unknownCommand(next, among: aptNames + ["help"], of: "installtop apt")
        }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        if !names.contains(word), aptNames.contains(word) {
            let verb = word == "full-upgrade" ? "fully upgrade" : word
            return "installtop has no command `\(word)`; to \(verb) packages with apt: installtop apt "
                + arguments.joined(separator: " ")
        }
        // A typo of an apt verb (`installtop instal cowsay`) is far from every command of
        // installtop's own: the hint is the whole `apt` command it probably meant.
        if !names.contains(word), EditDistance.closest(to: word, among: names) == nil,
           let verb = EditDistance.closest(to: word, among: aptNames) {
            let meant = (["installtop", APTCommand._commandName, verb] + arguments.dropFirst()).joined(separator: " ")
            return "installtop: unknown command '\(word)'; did you mean '\(meant)'?\n" + commandList(names, of: "installtop")
        }
        return unknownCommand(word, among: names, of: "installtop")
    }

    /// The message for `word` where one of `names` (the commands of `command`) was expected.
    private static func unknownCommand(_ word: String?, among names: [String], of command: String) -> String? {
        guard let word, !word.hasPrefix("-"), !names.contains(word) else { return nil }
        let hint = EditDistance.closest(to: word, among: names).map { "; did you mean '\($0)'?" } ?? ""
        return "installtop: unknown command '\(word)'\(hint)\n" + commandList(names, of: command)
    }

    /// `The commands: run, demo, … (installtop --help says more).`
    private static func commandList(_ names: [String], of command: String) -> String {
        "The commands: \(names.joined(separator: ", ")) (\(command) --help says more)."
    }
}
