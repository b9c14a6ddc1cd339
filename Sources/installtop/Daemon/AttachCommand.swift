import ArgumentParser
import CursesTerminal
import EngineDaemon
import Monitor
import MonitorRuntime

/// `installtop attach`: the monitor on a running engine's queue.
struct AttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Open the monitor on the running engine's queue; d or q detaches and the jobs keep running.",
        discussion: """
            Every key acts on the engine's queue, as in `installtop run`, and shows in every \
            attached monitor. SIGINT, SIGTERM and SIGHUP detach too. Exit status: 0 detached, \
            1 no engine or the engine went away, 2 invalid usage (a bad --theme, no terminal).
            """
    )

    @OptionGroup var socket: SocketOption

    @Option(help: ArgumentHelp("The monitor's theme: a name from `installtop themes` or a path.", valueName: "name|path"), completion: CompletionSources.theme)
    var theme: String?

    func run() throws {
        let client = try socket.connect()
        do {
            switch try MonitorSession.run(link: RemoteEngineLink(client: client), themeOption: theme, exitWhenDone: false) {
            case .quit, .quitWhileRunning:
                return
            case .linkLost(let reason):
                StandardOutput.stderr.line("installtop: \(reason)")
                throw ExitCode(1)
            }
        } catch let error as ThemeError {
            StandardOutput.stderr.line("installtop: \(error)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        } catch let error as CursesTerminalError {
            StandardOutput.stderr.line("installtop: attach needs a terminal (\(error)); `installtop status` prints the queue instead")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
    }
}
