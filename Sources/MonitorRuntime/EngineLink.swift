import EngineDaemon
import InstallEngine
import Monitor

/// The monitor's one seam to the engine: the queue in this process (`installtop run`,
/// `LocalEngineLink`) or an engine behind a socket (`installtop attach`, `RemoteEngineLink`).
/// `MonitorLoop` only talks to this, so it does not know which.
///
/// Everything comes back through the mailbox given to `start`: the queue's events (a replay
/// of the queue first, then `.ready`, then live events), refusals of commands as
/// `.commandResult`, history answers as `.monitor`, and `.linkLost` if the engine goes away.
public protocol EngineLink: Sendable {
    /// True when the jobs belong to an engine that outlives the monitor: quitting detaches.
    var jobsOutliveMonitor: Bool { get }

    /// Starts delivering to `mailbox`. Called once.
    func start(posting mailbox: Mailbox)

    /// Carries out a job command of the monitor (abort, abort all, clean up, retry); refusals
    /// come back as `.commandResult`.
    func perform(_ command: JobCommand)

    /// Queues a job of `updates` named `name` (an install of commands: the restart job of `R`);
    /// a refusal comes back as `.commandResult`, the job as the engine's events.
    func submit(name: String, updates: [Update])

    /// Asks for the newest `limit` history rows; the answer comes back as `.historyLoaded` or
    /// `.historyUnavailable`. Called on the monitor's thread: it returns at once and the rows
    /// are read elsewhere (the view shows "loading…" until they come).
    func loadHistory(limit: Int)

    /// Asks for the newest `limit` job runs of the history; the answer comes back as
    /// `.jobRunsLoaded` or `.jobRunsUnavailable`. Returns at once, like `loadHistory`.
    func loadJobRuns(limit: Int)

    /// Plans the undo of job run `run` where the history and dpkg are (this process's engine or
    /// the attached one) and queues it awaiting confirmation: the job comes back as the engine's
    /// events and its plan dialog asks. A refusal (the run cannot be undone, a package changed
    /// since, an engine that cannot undo) comes back as `.commandResult`. Returns at once.
    func undo(run: Int)

    /// Queues that job on `host`'s engine (the grouped board's `R`). A link of one engine has
    /// no hosts: it queues the job on its engine.
    func submit(name: String, updates: [Update], onHost host: String)

    /// Submits an `apt upgrade` (`full`: `apt full-upgrade`) to `host`'s engine without a yes
    /// (a rollout's `U` or `D`): the engine plans it and holds it awaiting confirmation, and it
    /// comes back as that host's events. Returns why nothing was sent when it cannot be (a link
    /// with no hosts, no apt kind); a refusal after sending comes back as `.commandResult`.
    /// `confirmSeconds` arms it: its run is undone on the host unless kept in that time.
    func upgrade(onHost host: String, full: Bool, confirmSeconds: Double?) -> String?

    /// Keeps commit-confirmed run `run` of `host`'s engine (`nil`: the engine's own, `K`);
    /// what was done, or the refusal, comes back as `.commandResult`.
    func keep(run: Int, onHost host: String?)

    /// Logs in to `host` afresh (`FreshLogin`) off the monitor's thread; how it went comes
    /// back as `HostEvent.freshLogin`. A link of one engine has no hosts: it says so.
    func checkFreshLogin(run: Int, onHost host: String)
    /// `loadHistory`, `loadJobRuns` and `undo` through `host`'s engine (the grouped board's `h`
    /// and `u`); the answers come back as `HostEvent.history` and `.jobRuns`. A link of one
    /// engine has no hosts: it asks its engine.
    func loadHistory(limit: Int, onHost host: String)
    func loadJobRuns(limit: Int, onHost host: String)
    func undo(run: Int, onHost host: String)

    /// Queues a refresh of `host`'s apt lists, a job of that host, after which its engine
    /// pushes its pending snapshot (`HostEvent.pending`; the board's `P`). A link of one engine has no
    /// board: nothing is sent.
    func refreshLists(onHost host: String)

    /// How the board reaches `host` (its ssh, options and remote command), from which the
    /// board's `s` opens an interactive shell there (`SSHCommand.shellArguments`) and keeps its
    /// recording in the host's history afterwards; `nil` for a link of one engine or a host the
    /// link does not know.
    func sshCommand(ofHost host: String) -> SSHCommand?

    /// Stops delivering; the mailbox gets nothing more.
    func stop()
}

extension EngineLink {
    public func upgrade(onHost host: String, full: Bool, confirmSeconds: Double?) -> String? {
        "upgrades are for the board of several hosts (installtop attach --hosts)"
    }

    public func checkFreshLogin(run: Int, onHost host: String) {}

    public func submit(name: String, updates: [Update], onHost host: String) {
        submit(name: name, updates: updates)
    }

    public func loadHistory(limit: Int, onHost host: String) { loadHistory(limit: limit) }
    public func loadJobRuns(limit: Int, onHost host: String) { loadJobRuns(limit: limit) }
    public func undo(run: Int, onHost host: String) { undo(run: run) }
    public func refreshLists(onHost host: String) {}
    public func sshCommand(ofHost host: String) -> SSHCommand? { nil }
}
