#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TerminalUI

extension MonitorRenderer {
    /// The history overlay's runs list (Tab from the updates): column headings, one line per
    /// job run (date, result, run id, kind, whether it can be undone, name), the selected run
    /// highlighted; below the runs, the selected run's packages or why it cannot be undone; then
    /// the keys, or the filter being typed.
    static func drawJobRuns(_ view: HistoryView, into buffer: inout Buffer, layout: MonitorLayout, state: MonitorState, theme: Theme) {
        let glyphs = state.glyphs
        let runs = view.visibleRuns
        // Enter is named only where it does something: among shells' runs.
        let play = runs.contains { $0.kind == HistoryView.shellKind } ? "Enter play  " : ""
        guard let inner = drawHistoryList(
            view, list: "job runs", content: view.shownRuns, shown: runs.count, nouns: ("run", "runs"), offset: view.runsOffset,
            page: HistoryView.runsPage(state.historyPageSize), keys: "\(glyphs.upDown) select  \(play)u undo  Tab updates  / filter  Esc h q close",
            empty: ("no job runs yet", "no run matches"), minimumHeight: 4, into: &buffer, layout: layout, state: state, theme: theme,
            headings: { JobRunColumns(width: $1.width).drawHeadings(into: &$0, y: $1.y, x: $1.x, style: theme[.dim]) })
        else { return }
        let columns = JobRunColumns(width: inner.width)
        let page = HistoryView.runsPage(state.historyPageSize)
        for (line, run) in runs.enumerated().dropFirst(view.runsOffset).prefix(page) {
            let y = inner.y + 1 + line - view.runsOffset
            drawJobRun(run, selected: line == view.selectedRun, columns: columns, into: &buffer, x: inner.x, y: y,
                       width: inner.width, state: state, theme: theme)
        }
        if let selected = view.selectedRunRow {
            let detail = selected.notUndoableBecause.map { "not undoable: " + $0 }
                ?? (selected.packages.isEmpty ? "no packages changed" : selected.packages.joined(separator: ", "))
            TextLine(glyphs.sanitizer.sanitize(detail), style: theme[selected.undoable ? .text : .dim], ellipsis: glyphs.box.ellipsis)
                .render(into: &buffer, area: inner.row(inner.height - 2))
        }
    }

    private static func drawJobRun(
        _ run: JobRunRow, selected: Bool, columns: JobRunColumns, into buffer: inout Buffer, x: Int, y: Int, width: Int,
        state: MonitorState, theme: Theme
    ) {
        let glyphs = state.glyphs
        let code = run.resultCode ?? .inProgress
        // The selected run is drawn in the selection's colours from end to end, as the panes do.
        func style(_ role: ThemeRole) -> Style { selected ? theme[.selection] : theme[role] }
        if selected { buffer.fill(Rect(x: x, y: y, width: width, height: 1), style: theme[.selection]) }
        columns.result.draw(date: run.date, mark: glyphs.mark(for: code), resultWord: run.resultCode?.jobWord ?? "running", into: &buffer,
                            x: x, y: y, timeZone: state.timeZone ?? .current, dateStyle: style(.dim), resultStyle: style(role(for: code)))
        TextLine(String(run.id), style: style(.text), alignment: .right)
            .render(into: &buffer, area: Rect(x: x + columns.runX, y: y, width: columns.run, height: 1))
        func cell(_ text: String, at column: Int, width: Int, style: Style) {
            drawHistoryCell(text, at: column, width: width, style: style, x: x, y: y, into: &buffer, glyphs: glyphs)
        }
        cell(run.kind, at: columns.kindX, width: columns.kind, style: style(.dim))
        cell(run.undoable ? "yes" : "no", at: columns.undoX, width: columns.undo, style: style(run.undoable ? .succeeded : .dim))
        cell(run.name, at: columns.nameX, width: columns.name, style: style(.text))
    }
}
