/// What the runtime answered for one of the history view's lists: the updates
/// (`HistoryView.Content`, for `.loadHistory`) or the job runs (`HistoryView.RunsContent`, for
/// `.loadJobRuns`).
public enum HistoryListContent<Row: Sendable & Hashable>: Sendable, Hashable {
    /// Not answered yet (the runs: or not asked for yet, until the view first shows them).
    case loading
    /// Newest first.
    case rows([Row])
    /// History is off or could not be read; the text says why.
    case unavailable(String)
}
