import TerminalUI

extension MonitorState {
    // MARK: - Opening and loading

    /// `h`: opens the history view and asks the runtime for the newest rows.
    mutating func openHistory() -> [MonitorEffect] {
        if board != nil { return openHostHistory() }
        overlay = .history(HistoryView())
        return [.loadHistory(limit: HistoryView.rowLimit)]
    }

    /// The runtime's answer to `.loadHistory`; ignored when the view was closed meanwhile.
    mutating func historyLoaded(_ content: HistoryView.Content) -> [MonitorEffect] {
        historyViewLoaded { $0.content = content }
    }

    /// The runtime's answer to `.loadJobRuns`; ignored when the view was closed meanwhile.
    mutating func jobRunsLoaded(_ runs: HistoryView.RunsContent) -> [MonitorEffect] {
        historyViewLoaded { $0.runs = runs }
    }

    /// The board's shells on `host` from the operator's history (`.loadShellRuns`); ignored
    /// unless that host's history view is open.
    mutating func shellRunsLoaded(_ runs: [JobRunRow], host: String) -> [MonitorEffect] {
        historyViewLoaded(host: host) { $0.shells = runs }
    }

    /// Gives the open history view what the runtime loaded (`load`), its lists scrolled no
    /// further than their ends, and redraws; nothing when no history view is open, or one of
    /// another host than `host` (`nil`: whichever is open).
    private mutating func historyViewLoaded(host: String? = nil, _ load: (inout HistoryView) -> Void) -> [MonitorEffect] {
        guard case .history(var view)? = overlay, host == nil || view.host == host else { return [] }
        load(&view)
        view.clampOffset(page: historyPageSize)
        overlay = .history(view)
        return [.redraw]
    }

    /// Rows of entries the history view shows: the overlay's inner rows less the column
    /// headings and the hint line (the runs list gives one more to the selected run).
    var historyPageSize: Int { max(1, MonitorLayout.innerRows(layout.body) - 2) }

    // MARK: - Keys

    /// Keys while the history view is open (see `HistoryView.handle(_:page:)`). `u` on a run
    /// that can be undone closes the view and asks the runtime to plan the undo: its job comes
    /// back awaiting confirmation, which opens the plan dialog as for any apt job.
    mutating func handleHistoryKey(_ key: Key, view: HistoryView) -> [MonitorEffect] {
        var view = view
        switch view.handle(key, page: historyPageSize) {
        case .stay:
            overlay = .history(view)
            return []
        case .close:
            overlay = nil
            return []
        case .loadRuns:
            overlay = .history(view)
            if let host = view.host {
                return [.loadJobRunsOnHost(host: host, limit: HistoryView.rowLimit), .loadShellRuns(host: host, limit: HistoryView.rowLimit)]
            }
            return [.loadJobRuns(limit: HistoryView.rowLimit)]
        case .undo(let run):
            if let host = view.host {
                // Which engine undoes it is said before anything is planned there.
                overlay = .confirm(.undoRun(run: run, host: host))
                return []
            }
            overlay = nil
            say("Planning the undo of run \(run)\(glyphs.box.ellipsis)")
            return [.undo(run: run)]
        case .replay(let run):
            overlay = .history(view)
            return [.replayShell(run: run)]
        case .explain(let text):
            overlay = .history(view)
            say(text)
            return []
        }
    }
}
