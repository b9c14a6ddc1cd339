import TerminalUI
/// The board's `h`, `u` and `s`: a host's history, read from its engine over its link, the undo
/// of one of its runs there, and a shell on it.
extension MonitorState {
    /// `h` on the board: the history of the selected host (its row's, or its job's), titled
    /// with its name; nothing is asked of a host whose link is down or whose engine is silent.
    mutating func openHostHistory() -> [MonitorEffect] {
        guard let host = selectedHost else {
            say("Select a host first: h shows that host's history")
            return []
        }
        if refusesStale(host: host) { return [] }
        overlay = .history(HistoryView(host: host))
        return [.loadHistoryOnHost(host: host, limit: HistoryView.rowLimit)]
    }

    /// `y` to "Undo run 7 on web1?": its engine plans the undo, whose job comes back as the
    /// host's, awaiting its plan's yes; a refusal comes back with the host's reason.
    mutating func confirmUndo(run: Int, onHost host: String) -> [MonitorEffect] {
        if refusesStale(host: host) { return [] }
        say("Planning the undo of run \(run) on \(glyphs.sanitizer.sanitize(host))\(glyphs.box.ellipsis)")
        return [.undoOnHost(host: host, run: run)]
    }

    /// `s` on the board: a shell on the selected host (its row's, or its job's). An unreachable
    /// host is not refused: the shell's own ssh says why it cannot connect.
    mutating func openHostShell() -> [MonitorEffect] {
        guard let host = selectedHost else {
            say("Select a host first: s opens a shell on it")
            return []
        }
        return [.openShell(host: host)]
    }
}
