import ArgumentParser
import EngineDaemon
import InstallDrivers
import RestartScan
import TextBasics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `installtop serve`: the engine on its own, behind a socket.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the engine in the foreground as a service; submit, attach, status, abort and cleanup talk to it.",
        discussion: """
            Jobs come from `installtop submit`; monitors attach with `installtop attach` and may \
            detach and come back while the jobs run. Only your own user may connect, and with \
            `--watch-group` that group's members, who may attach, read status and the history but \
            not act (submit, abort, clean up, retry, confirm: refused with the reason). SIGTERM or \
            SIGINT aborts running jobs gracefully, records their results and exits (a second one \
            kills them at once); SIGHUP is ignored, so the engine outlives the terminal it was \
            started from. Log lines go to stderr. `--systemd-unit` prints a unit that runs it \
            as the machine's service (socket /run/installtop.sock, history under /var/lib/installtop).
            """
    )

    @Flag(help: "Print a systemd unit that runs this binary as the system's engine, and exit.")
    var systemdUnit = false

    @OptionGroup var socket: SocketOption

    @OptionGroup var scheduling: SchedulingOptions

    @OptionGroup var history: HistoryOptions

    @Option(help: ArgumentHelp(
        "apt's configuration file, as APT_CONFIG: the root whose dpkg lock and log show the installs no hooks report, and whose pending snapshot the engine keeps for `installtop pending` (default: this system's).",
        valueName: "file"))
    var aptConfig: String?

    @Option(help: ArgumentHelp(
        "Close a client that reads nothing at all for this many seconds while events wait for it (a stopped or hung monitor); one that reads, however slowly, is never closed.",
        valueName: "seconds"))
    var idleReaderTimeout = 120

    @Option(help: ArgumentHelp(
        "Let this group's members (a name or number) attach and read status and history, but not act: abort, force, clean up, confirm, submit and restart stay with the engine's user. The socket becomes mode 0660 and of this group; its directory must let them through.",
        valueName: "group"))
    var watchGroup: String?

    @Option(help: ArgumentHelp(
        "Write the engine's metrics for node_exporter's textfile collector to installtop.prom in this directory, atomically, at most once a second (default: for the machine's engine on /run/installtop.sock, /var/lib/prometheus/node-exporter when it exists; else none).",
        valueName: "directory"))
    var metricsTextfileDirectory: String?

    @Flag(help: "Write no metrics textfile, even where node_exporter's textfile directory exists.")
    var noMetricsTextfile = false

    func validate() throws {
        if noMetricsTextfile, metricsTextfileDirectory != nil {
            throw ValidationError("--no-metrics-textfile and --metrics-textfile-directory say opposite things; give one")
        }
        guard idleReaderTimeout >= 1 else {
            throw ValidationError("--idle-reader-timeout must be a whole number of seconds, 1 or more; got \(idleReaderTimeout)")
        }
    }

    func run() throws {
        if systemdUnit {
            let executable = ProcFS().ownExecutable() ?? CommandLine.arguments[0]
            StandardOutput.stdout.write(SystemdUnit.text(executable: executable))
            return
        }
        let path: String
        let watchers: WatchGroup?
        do {
            path = try socket.path()
            watchers = try watchGroup.map { name throws(DaemonError) in try WatchGroup(name) }
        } catch {
            StandardOutput.stderr.line("installtop: \(error)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
        throw ExitCode(ServeSession(socketPath: path, scheduling: scheduling, history: history,
                                    idleReaderTimeout: .seconds(idleReaderTimeout), watchGroup: watchers, aptConfig: aptConfig,
                                    metricsDirectory: MetricsTextfileLocation.directory(
                                        given: metricsTextfileDirectory, disabled: noMetricsTextfile, socket: path,
                                        isDirectory: { FileKind.of($0) == .folder })).run())
    }
}
