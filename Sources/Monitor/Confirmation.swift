/// A question the monitor asks before doing something that cannot be undone; `y` answers yes,
/// `n` or Esc no.
public enum Confirmation: Sendable, Hashable {
    /// Abort job `job` (named `name`).
    case abortJob(job: Int, name: String)
    /// Abort every job that has not completed (`count` of them).
    case abortAll(count: Int)
    /// Quit while `count` jobs have not completed: they would be aborted.
    case quit(count: Int)
    /// Start job `job` (named `name`, `updates` updates), which awaits confirmation (an apt
    /// plan); no aborts it without running anything. The plan shown is scrolled `scroll` rows
    /// (the arrows, PgUp, PgDn, Home and End scroll it while the question is open).
    case startJob(job: Int, name: String, updates: Int, scroll: Int = 0)
    /// Create a job restarting `plan.restart` (`R`); the list is scrolled `scroll` rows, as
    /// the plan of `startJob` is.
    case restartServices(ServiceRestartPlan, scroll: Int = 0)
    /// Leave the board while a rollout has `left` hosts not started (declined if yes) and
    /// `running` hosts whose jobs go on in their engines.
    case quitRollout(left: Int, running: Int)
    /// On the board: plan the undo of job run `run` on `host`'s engine (`u` in that host's
    /// history); its job then comes back awaiting its plan's yes.
    case undoRun(run: Int, host: String)
}
