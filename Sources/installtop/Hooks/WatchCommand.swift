import ArgumentParser
import CursesTerminal
import EngineDaemon
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import Monitor
import MonitorRuntime
import EngineWire
import InstallHistory

/// `installtop watch`: the monitor on this machine's engine, where the hooks report every
/// install (Documentation/OBSERVED-JOBS.md). With no engine listening it runs one in this process,
/// on the same socket, for as long as it is open; a user who is not root and has no engine of
/// their own watches the machine's instead, as its watch group's member (`serve --watch-group`).
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch every install on this machine, whoever started it (the monitor on the engine the hooks report to).",
        discussion: """
            Attaches to the engine listening on the hooks' socket (for a user who is not root and \
            has no engine there, the machine's at /run/installtop.sock); when none listens, runs one \
            in this process on that socket until you quit, so the hooks reach it. Without hooks it \
            says who holds dpkg's lock and suggests `installtop hooks install`. Observed jobs \
            cannot be aborted: `a` says why. Exit status: 0 quit, 1 the engine could not start, \
            went away or does not admit you, 2 invalid usage (no terminal, a bad --theme, or no \
            engine to watch and no socket of your own to run one on).
            """
    )

    @OptionGroup var options: HookOptions

    @Option(help: ArgumentHelp("The monitor's theme: a name from `installtop themes` or a path.", valueName: "name|path"), completion: CompletionSources.theme)
    var theme: String?

    @OptionGroup var history: HistoryOptions

    func run() throws {
        let (own, machine) = options.watchedSockets()
        let note = WatchNote.text(files: try options.files(), administrativeDirectory: options.administrativeDirectory())
        let client: EngineClient
        do {
            client = try SocketLocation.connectFirst(own: own, machine: machine) { path throws(DaemonError) in try EngineClient(path: path) }
        } catch {
            // Nothing answers: an engine of this process's own, where the hooks report to it.
            guard let own, error == .noEngine(own) || error == .noEngineFound(own: own, machine: machine) else {
                StandardOutput.stderr.line("installtop: \(error)")
                throw ExitCode(error == .noEngineFound(own: nil, machine: machine) ? ExitStatus.invalidUsage.rawValue : 1)
            }
            try presenting { try host(on: own, note: note) }
            return
        }
        try presenting { try attach(client, note: note) }
    }

    /// Runs `monitor`, saying what a bad theme or a missing terminal means (exit status 2).
    private func presenting(_ monitor: () throws -> Void) throws {
        try MonitorStartErrors.presenting(for: "watch", monitor)
    }

    private func attach(_ client: EngineClient, note: String) throws {
        if case .linkLost(let reason) = try MonitorSession.run(
            link: RemoteEngineLink(client: client), themeOption: theme, exitWhenDone: false, startingNote: note) {
            StandardOutput.stderr.line("installtop: \(reason)")
            throw ExitCode(1)
        }
    }

    /// An engine in this process on `socket`, gone with the monitor.
    private func host(on socket: String, note: String) throws {
        let warnings = Warnings()
        let engine = EngineHost(scheduling: nil, history: history, warnings: warnings)
        // Jobs submitted to this engine while it watches are planned as `serve` plans them.
        let kinds = EngineHost.kinds()
        defer { kinds.removeFiles() }
        let server: EngineServer
        do {
            server = try EngineServer(queue: engine.queue, history: engine.history, options: ServerOptions(
                socketPath: socket, kinds: kinds, observed: EngineHost.observedSources(aptConfig: options.aptConfig)))
        } catch {
            StandardOutput.stderr.line("installtop: cannot listen on \(socket): \(error)")
            throw ExitCode(1)
        }
        defer { server.stop() }
        let monitorHistory: MonitorHistory
        switch engine.history {
        case .off(let reason): monitorHistory = .off(reason)
        case .store(let store): monitorHistory = MonitorHistory(store: store, updateIDs: []) { warnings.add("no history: \($0)") }
        }
        _ = try MonitorSession.run(
            link: LocalEngineLink(queue: engine.queue, history: monitorHistory), themeOption: theme, exitWhenDone: false, startingNote: note)
        for warning in warnings.all { StandardOutput.stderr.line("installtop: \(warning)") }
    }
}
