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

    /// Keys while the history view is open: the filter takes typing while it is edited;
    /// otherwise the arrows and page keys scroll, `/` edits the filter, and Esc, `h` or `q`
    /// close the view.
    mutating func handleHistoryKey(_ key: Key, view: HistoryView) {
        var view = view
        let page = historyPageSize
        if view.isEditingFilter {
            switch key {
            case .character(let character): view.filterText.append(character)
            case .backspace: if !view.filterText.isEmpty { view.filterText.removeLast() }
            case .enter: view.isEditingFilter = false
            case .escape:
                view.isEditingFilter = false
                view.filterText = ""
            default: break
            }
            view.offset = 0
            overlay = .history(view)
            return
        }
        switch key {
        case .escape, .character("h"), .character("q"):
            overlay = nil
            return
        case .character("/"): view.isEditingFilter = true
        case .up, .character("k"): view.offset -= 1
        case .down, .character("j"): view.offset += 1
        case .pageUp: view.offset -= page
        case .pageDown: view.offset += page
        case .home: view.offset = 0
        case .end: view.offset = Int.max / 2
        default: break
        }
        view.clampOffset(page: page)
        overlay = .history(view)
    }
}
