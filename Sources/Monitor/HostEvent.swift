#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire

/// What the grouped board's link says about its hosts (`MonitorEvent.host`).
public enum HostEvent: Sendable, Hashable {
    /// The board's hosts, in the order shown; sent once, first. Before it the monitor is a
    /// single engine's, and it stays so when this never comes.
    case hosts([String])
    /// ssh to `host` is starting (first time, or again after a failure).
    case connecting(String)
    /// The host's queue follows afresh: the jobs shown for it go (they come back with the
    /// snapshot, under the same board numbers), and its link counts as connected.
    case queueReplaced(String)
    /// The host's snapshot that followed `queueReplaced` has been posted whole: a job row of
    /// the host that was selected before is selected again if its job came back, and a
    /// selection following the work may move on again.
    case queueShown(String)
    /// The link to `host` failed with `reason` (ssh's last stderr line); tried again at `retryAt`.
    case unreachable(String, reason: String, retryAt: Date)
    /// `host`'s link is up but its engine has sent nothing since `since`, nor answered the
    /// board's question: stopped or hung. Its jobs stay shown, stale. Said only of a connected
    /// host.
    case silent(String, since: Date)
    /// `host`, said silent, sent something again: its jobs are current.
    case answersAgain(String)
    /// Board job `board` is job `origin.job` of `origin.host`: sent before its `job.queued`.
    case jobOrigin(board: Int, origin: JobOrigin)
    /// `host`'s engine queued nothing of a rollout's `apt upgrade`: `upToDate` when apt's plan
    /// was empty, else refused for `reason` (the engine's words).
    case upgradeRefused(String, reason: String, upToDate: Bool)
    /// `host`'s engine queued the board's refresh of its lists as its job `job` (its own number).
    case refreshQueued(String, job: Int)
    /// `host`'s engine refused the board's refresh for `reason`, or it could not be sent.
    case refreshRefused(String, reason: String)
    /// `host`'s engine pushed its pending snapshot's state (after the link came up, and at
    /// every change of its root): the newest snapshot (`nil` before its first), and whether a
    /// newer one is being computed or waits for a change under way. An engine that keeps no
    /// snapshot sends none.
    case pending(String, PendingSnapshot?, computing: Bool)
    /// `host`'s engine answered the board's `h` (its history) or the runs list of that view.
    case history(String, HistoryView.Content)
    case jobRuns(String, HistoryView.RunsContent)
    /// `host`'s engine pushed its commit-confirmed runs (after its snapshot and at each change).
    case armed(String, ArmedRuns)
    /// The board's fresh ssh login to `host` for its run `run` ended: `failure` says why it did
    /// not work, `nil` when it did (the run is then kept).
    case freshLogin(String, run: Int, failure: String?)
    /// The patch night the board follows changed (its stamp was written); `nil` while no night
    /// of its policy has run here.
    case night(BoardNight?)
}
