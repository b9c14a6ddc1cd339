/// What a key in the history view asks of the monitor beyond the view itself.
enum HistoryViewOutcome: Sendable, Hashable {
    /// The view stays open; nothing else to do.
    case stay
    /// The key closes the view.
    case close
    /// The runs list was opened for the first time: ask the runtime for the runs.
    case loadRuns
    /// `u` on a run that can be undone: plan its undo (the plan dialog follows as the job's
    /// confirmation).
    case undo(run: Int)
    /// Enter on a shell's run: play its recording.
    case replay(run: Int)
    /// `u` on a run that cannot be undone (or on no run): the text says why.
    case explain(String)
}
