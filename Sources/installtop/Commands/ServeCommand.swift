import ArgumentParser
import EngineDaemon
import Foundation

/// `installtop serve`: the engine on its own, behind a socket.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the engine in the foreground as a service; submit, attach, status, abort and cleanup talk to it.",
        discussion: """
            Jobs come from `installtop submit`; monitors attach with `installtop attach` and may \
            detach and come back while the jobs run. Only your own user may connect. SIGTERM or \
            SIGINT aborts running jobs gracefully, records their results and exits (a second one \
            kills them at once); SIGHUP is ignored, so the engine outlives the terminal it was \
            started from. Log lines go to stderr.
            """
    )

    @OptionGroup var socket: SocketOption

    @Option(help: "How many jobs run at once.")
    var concurrency = 1

    @Option(help: ArgumentHelp("Seconds between SIGTERM and SIGKILL when aborting (overrides every job's).", valueName: "seconds"))
    var abortGrace: Double?

    @Option(help: ArgumentHelp("The history database.", valueName: "path"))
    var historyDb: String?

    @Flag(help: "Do not record the install history.")
    var noHistory = false

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1; got \(concurrency)") }
        if let abortGrace, !(abortGrace >= 0 && abortGrace.isFinite) {
            throw ValidationError("--abort-grace must be a number of seconds, 0 or more; got \(abortGrace)")
        }
        if noHistory && historyDb != nil { throw ValidationError("--no-history and --history-db exclude each other") }
    }

    func run() throws {
        let path: String
        do {
            path = try socket.path()
        } catch {
            StandardOutput.stderr.line("installtop: \(error)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
        let session = ServeSession(
            socketPath: path, concurrency: concurrency, abortGrace: abortGrace,
            historyPath: historyDb, noHistory: noHistory)
        throw ExitCode(session.run())
    }
}
