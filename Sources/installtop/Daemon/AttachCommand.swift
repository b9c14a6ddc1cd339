import ArgumentParser
import CursesTerminal
import EngineDaemon
import InstallHistory
import Monitor
import MonitorRuntime

/// `installtop attach`: the monitor on a running engine's queue.
struct AttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Open the monitor on the running engine's queue, or one board of several hosts' queues; d or q detaches and the jobs keep running.",
        discussion: """
            Every key acts on the engine's queue, as in `installtop run`, and shows in every \
            attached monitor. SIGINT, SIGTERM and SIGHUP detach too. Exit status: 0 detached, \
            1 no engine or the engine went away, 2 invalid usage (a bad --theme, no terminal).

            With --host NAME (repeatable) or --hosts INVENTORY (and --limit), one board shows every \
            host's jobs grouped by host, each host reached as `ssh HOST installtop bridge`: keys \
            act on the selected job through its host's engine; an unreachable host shows ssh's \
            words and its last known jobs as stale, and is tried again (1 s doubling to 30 s). \
            Each host row says what the host would upgrade (its engine's pending snapshot); F \
            filters the hosts, o sorts them, P refreshes the selected host's lists, h shows its \
            history and u undoes one of its runs there. s opens a shell on the selected host \
            (`ssh -t`, with the board's ssh options) and gives the board back when it exits; the \
            session's output (never what is typed) is recorded as an asciicast v2 file, a run of \
            kind shell in your history (--history-db), played back by `installtop replay RUN`. \
            With --confirm DURATION (or W on the board) U and D arm each host's upgrade: its engine \
            checks the host before and after and undoes the run unless kept in time (K on its row; \
            with --confirm-by-login, or L, once a fresh ssh login to the host works and no check regressed). \
            With --night POLICY the board follows that policy's patch night on this machine \
            (`installtop patch --policy POLICY`): the header says where the night is, and a host's \
            pane its step.
            """
    )

    @OptionGroup var socket: SocketOption
    @OptionGroup var hosts: HostsOptions

    @Option(help: ArgumentHelp("With --host or --hosts: how many marked hosts the board's U upgrades at once.", valueName: "N"))
    var parallel = 2

    @Option(help: ArgumentHelp("With --host or --hosts: U and D arm each host's upgrade with this window (5m, 1h): undone on the host unless kept in time.",
                               valueName: "duration"))
    var confirm: String?

    @Flag(help: "With --confirm: the board keeps an armed host's run once a fresh ssh login to it works and none of its checks regressed.")
    var confirmByLogin = false

    @Option(help: ArgumentHelp(
        "With --host or --hosts: the history database the board's s records shells in (default: $XDG_STATE_HOME/installtop/history.sqlite3); their recordings go in shells/ beside it.",
        valueName: "path"))
    var historyDb: String?

    @Option(help: ArgumentHelp(
        "With --host or --hosts: follow this policy's patch night on this machine (its stamp): where the night is in the header, each host's step in its pane.",
        valueName: "policy"))
    var night: String?

    @OptionGroup var state: NightStateOption

    @Option(help: ArgumentHelp("The monitor's theme: a name from `installtop themes` or a path.", valueName: "name|path"), completion: CompletionSources.theme)
    var theme: String?

    func validate() throws {
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
        if (confirm != nil || confirmByLogin) && !hosts.isRemote {
            throw ValidationError("--confirm and --confirm-by-login are for the board of hosts (--host, --hosts)")
        }
        if let confirm, (ConfirmDuration.seconds(confirm) ?? 0) <= 0 {
            throw ValidationError("--confirm takes a duration such as 90s, 5m or 1h30m; got '\(confirm)'")
        }
        if night != nil, !hosts.isRemote {
            throw ValidationError("--night is for the board of hosts (--host, --hosts): the night's hosts")
        }
        if state.stateFolder != nil, night == nil {
            throw ValidationError("--state-dir is where --night's stamp is: give --night POLICY too")
        }
        if historyDb != nil, !hosts.isRemote {
            throw ValidationError("--history-db is for the board of hosts (--host, --hosts): where its s records shells")
        }
    }

    func run() throws {
        let link: any EngineLink
        var shellHistory: String?
        if hosts.isRemote {
            shellHistory = historyDb ?? HistoryStore.defaultPath()
            try hosts.checkNoSocket(socket)
            link = HostsEngineLink(hosts: try hosts.sshCommands(), upgradeJob: EngineHost.rolloutJob)
        } else {
            link = RemoteEngineLink(client: try socket.connect())
        }
        // The night's stamp, where `installtop patch` with the same policy and state folder writes it.
        let follower = night.map { NightStampFollower(stampFile: state.stampFile(policy: $0)) }
        let ending = try MonitorStartErrors.presenting(for: "attach") {
            try MonitorSession.run(link: link, themeOption: theme, exitWhenDone: false, rolloutParallel: parallel,
                                   confirmWindow: confirm.flatMap(ConfirmDuration.seconds), confirmByLogin: confirmByLogin,
                                   shellHistory: shellHistory, night: follower)
        }
        switch ending {
        case .quit, .quitWhileRunning, .followedJobEnded:
            return
        case .linkLost(let reason):
            StandardOutput.stderr.line("installtop: \(reason)")
            throw ExitCode(1)
        }
    }
}
