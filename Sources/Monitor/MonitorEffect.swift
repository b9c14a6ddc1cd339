import InstallEngine

/// Work the monitor asks its runtime to do after handling an event: engine commands, quitting,
/// and drawing. Values, so the reducer is testable without an engine or a terminal.
public enum MonitorEffect: Sendable, Hashable {
    /// A command for the engine; a refusal comes back as `.commandResult`. A cleaned-up job
    /// leaves the state when its `jobCleanedUp` event arrives.
    case command(JobCommand)
    /// Queue a new job of `updates` named `name` (the restart job of `R`); a refusal comes back
    /// as `.commandResult`, the job itself as engine events.
    case submit(name: String, updates: [Update])
    /// On the grouped board: queue that job on `host`'s engine (the restart job of `R` on the
    /// selected host); a refusal comes back as `.commandResult`.
    case submitOnHost(host: String, name: String, updates: [Update])
    /// On the grouped board: submit an `apt upgrade` to `host`'s engine without a yes, which
    /// plans it and holds it awaiting confirmation (a rollout's `U`); a refusal comes back as
    /// `.commandResult`.
    /// `confirmSeconds` arms it (commit-confirmed, Documentation/COMMIT-CONFIRMED.md): its run
    /// is undone on the host unless kept within that many seconds.
    case upgradeOnHost(host: String, full: Bool, confirmSeconds: Double?)
    /// Keep commit-confirmed run `run` of the engine (`K`; `host`'s engine on the board); what
    /// was done, or the refusal, comes back as `.commandResult`.
    case keepRun(host: String?, run: Int)
    /// On the board: log in to `host` afresh over ssh (no shared connection) and, when that
    /// works, keep its run `run`; how the login went comes back as `HostEvent.freshLogin`.
    case keepRunAfterFreshLogin(host: String, run: Int)
    /// Leave the monitor. `abortRunning` is true when the user quit while jobs ran (they have
    /// been aborted and have completed by now), which the runner reports in its exit status.
    case quit(abortRunning: Bool)
    /// Read the newest `limit` rows of the install history and answer with `.historyLoaded`
    /// (or `.historyUnavailable` when history is off or cannot be read).
    case loadHistory(limit: Int)
    /// Read the newest `limit` job runs of the history and answer with `.jobRunsLoaded` (or
    /// `.jobRunsUnavailable`).
    case loadJobRuns(limit: Int)
    /// Plan the undo of job run `run` and queue it awaiting confirmation; a refusal (the run
    /// cannot be undone, a package changed since, no undo here) comes back as `.commandResult`.
    case undo(run: Int)
    /// On the board: `loadHistory`, `loadJobRuns` and `undo` through `host`'s engine; the
    /// answers come back as `HostEvent.history` and `.jobRuns`, a refusal as `.commandResult`.
    case loadHistoryOnHost(host: String, limit: Int)
    case loadJobRunsOnHost(host: String, limit: Int)
    case undoOnHost(host: String, run: Int)
    /// On the board: queue a refresh of `host`'s apt lists (the `refresh` wire command), a job
    /// of that host; a refusal comes back as `.commandResult`.
    case refreshOnHost(host: String)
    /// On the board: open an interactive shell on `host` through the operator's ssh, the
    /// terminal handed over until it exits; how it ended comes back as `.commandResult`.
    case openShell(host: String)
    /// On the board: read the shells opened on `host` from the board (the newest `limit`, from
    /// the operator's history) and answer with `.shellRunsLoaded`.
    case loadShellRuns(host: String, limit: Int)
    /// Play shell run `run`'s recording on the terminal, handed over until it ends; how it went
    /// comes back as `.commandResult`.
    case replayShell(run: Int)
    /// The screen no longer matches the state: render and draw (the runtime may coalesce).
    case redraw
}
