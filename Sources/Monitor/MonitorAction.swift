/// What a key does in the monitor's main view, as the key map names it.
public enum MonitorAction: Sendable, Hashable {
    /// Move the selection (or scroll the output): by a row, a page or to an end.
    case navigate
    case nextPane
    case previousPane
    /// `f`: the selection follows the running job and update again.
    case followWork
    case openFullOutput
    case clearFilter
    case abortSelectedJob
    case abortAllJobs
    case cleanUpSelectedJob
    case cleanUpCompletedJobs
    case retrySelectedJob
    /// `R`: a job restarting the services the newest restart scan lists (asks first).
    case restartServices
    case editFilter
    case nextTheme
    case openHistory
    case openHelp
    /// `q`: quit, asking while jobs run (attached: detach).
    case quit
    /// `d`: detach an attached monitor (locally it says what `d` is for).
    case detach
    /// `→`, `←` or Space on the grouped board: show or fold the selected host's jobs.
    case toggleHost
    /// `m` on the board: mark or unmark the selected host for a rollout.
    case markHost
    /// `M` on the board: mark every host shown, or clear the marks when all are marked.
    case markShownHosts
    /// `U` on the board: upgrade the marked hosts (the plans' dialog first); while a rollout
    /// is paused after a failure, start the next hosts again.
    case upgradeMarkedHosts
    /// `D` on the board: the same with `apt full-upgrade` (new and removed packages too).
    case fullUpgradeMarkedHosts
    /// `X` on the board: stop a rollout, declining the hosts not started.
    case stopRollout
    /// `F` on the board: list the hosts of the next state (up to date, pending …).
    case cycleHostFilter
    /// `o` on the board: sort the hosts the next way.
    case cycleHostSort
    /// `P` on the board: refresh the marked hosts' apt lists a few at a time, or the selected
    /// host's; each host's pending snapshot follows.
    case refreshHosts
    /// `s` on the board: a shell on the selected host through the operator's ssh, recorded.
    case openShell
    /// `K`: keep the selected host's commit-confirmed run (the engine's newest, off the board).
    case keepArmedRun
    /// `W` on the board: the window its next rollout arms each host with.
    case cycleConfirmWindow
    /// `L` on the board: keep a rollout's armed run once a fresh ssh login to its host works.
    case toggleConfirmByLogin
}
