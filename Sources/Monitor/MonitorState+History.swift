import TerminalUI

extension MonitorState {
    // MARK: - Opening and loading

    /// `h`: opens the history view and asks the runtime for the newest rows.
    mutating func openHistory() -> [MonitorEffect] {
        overlay = .history(HistoryView())
        return [.loadHistory(limit: HistoryView.rowLimit)]
    }

    /// The runtime's answer to `.loadHistory`; ignored when the view was closed meanwhile.
    mutating func historyLoaded(_ content: HistoryView.Content) -> [MonitorEffect] {
        guard case .history(var view)? = overlay else { return [] }
        view.content = content
        view.clampOffset(page: historyPageSize)
        overlay = .history(view)
        return [.redraw]
    }

    /// Rows of entries the history view shows: the overlay's inner rows less the column
    /// headings and the hint line.
    var historyPageSize: Int { max(1, MonitorLayout.innerRows(layout.body) - 2) }

    // MARK: - Keys

    /// Keys while the history view is open (see `HistoryView.handle(_:page:)`).
    mutating func handleHistoryKey(_ key: Key, view: HistoryView) {
        var view = view
        overlay = view.handle(key, page: historyPageSize) ? .history(view) : nil
    }
}
