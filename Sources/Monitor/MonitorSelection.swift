/// What the operator is looking at: the selected job and update, the pane the arrow keys act
/// on, and how far each pane is scrolled. Its methods change only the selection; which jobs
/// and updates exist and are shown is `MonitorState`'s to say.
public struct MonitorSelection: Sendable, Hashable {
    /// The selected job's number; `nil` when no job is shown.
    public internal(set) var jobID: Int?
    /// The selected update's position in the selected job.
    public internal(set) var updateIndex: Int?
    /// While true, the selection moves to each update of the selected job as it starts (or
    /// reports progress as the job's current update); moving the selection by hand turns it off
    /// until another job is selected or `f` is pressed.
    public internal(set) var followsRunningUpdate = true
    /// While true, a running job is selected whenever the selected one is not running, so the
    /// panes show the work as it moves from job to job; moving the selection by hand (in the jobs
    /// or the updates pane) turns it off until `f` is pressed.
    public internal(set) var followsWork = true
    /// The pane the arrow keys act on.
    public internal(set) var focusedPane: MonitorPane = .jobs
    /// First visible row of the jobs pane.
    public internal(set) var jobsOffset = 0
    /// First visible row of the updates pane.
    public internal(set) var updatesOffset = 0
    /// Lines the output pane is scrolled up from the newest line (0 follows the output).
    public internal(set) var outputScroll = 0

    public init() {}

    /// Selects job `id` and its update `index`, from the top of both lists, following the
    /// running update again.
    mutating func select(job id: Int, update index: Int?) {
        jobID = id
        updateIndex = index
        followsRunningUpdate = true
        updatesOffset = 0
        outputScroll = 0
    }

    /// Selects nothing (no job is shown).
    mutating func clear() {
        jobID = nil
        updateIndex = nil
    }

    /// The operator picked update `index`: its output shows from the newest line, and the
    /// selection no longer follows the running update.
    mutating func pick(update index: Int) {
        if index != updateIndex {
            updateIndex = index
            outputScroll = 0
        }
        followsRunningUpdate = false
    }

    /// The operator moved the selection: it stays where they put it.
    mutating func stopFollowingWork() {
        followsWork = false
    }

    /// `f`: follow the running job and update again.
    mutating func resumeFollowingWork() {
        followsWork = true
        followsRunningUpdate = true
    }

    /// Whether an update of job `job` that starts becomes the selected one.
    func follows(job: Int) -> Bool { job == jobID && followsRunningUpdate }

    /// Update `index` of job `job` started: selected when `follows(job:)`.
    mutating func updateStarted(job: Int, index: Int) {
        guard follows(job: job) else { return }
        updateIndex = index
        outputScroll = 0
    }

    /// Scrolls the output pane `delta` lines forward in time (negative: back); `Int.min` goes
    /// to the oldest line, `Int.max` back to following the newest.
    mutating func scrollOutput(by delta: Int) {
        outputScroll = delta == Int.min ? Int.max : delta == Int.max ? 0 : outputScroll - delta
    }

    /// A line was added to the selected update's output, which now has `lines` lines with
    /// `page` visible: a view scrolled back keeps showing the same lines.
    mutating func outputGrew(lines: Int, page: Int) {
        guard outputScroll > 0 else { return }
        outputScroll = min(outputScroll + 1, max(0, lines - page))
    }

    /// Keeps the output's scroll position within `lines` lines with `page` visible.
    mutating func clampOutputScroll(lines: Int, page: Int) {
        outputScroll = min(max(0, outputScroll), max(0, lines - page))
    }

    /// Moves the focus to the next pane (`forward`) or the previous one.
    mutating func switchPane(forward: Bool) {
        focusedPane = forward ? focusedPane.next : focusedPane.previous
    }
}
