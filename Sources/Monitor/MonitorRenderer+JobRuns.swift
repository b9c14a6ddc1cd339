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
        let sanitizer = glyphs.sanitizer
        let runs = view.visibleRuns
        let page = HistoryView.runsPage(state.historyPageSize)
        var title = (view.host.map { "History of \(glyphs.sanitizer.sanitize($0))" } ?? "History") + glyphs.separator + "job runs"
        switch view.shownRuns {
        case .loading: title += glyphs.separator + "loading" + String(glyphs.box.ellipsis)
        case .unavailable: break
        case .rows(let all):
            title += glyphs.separator
            title += view.filterText.isEmpty ? "\(all.count) \(all.count == 1 ? "run" : "runs")" : "\(runs.count)/\(all.count) match"
            if !runs.isEmpty { title += glyphs.separator + "\(view.runsOffset + 1)-\(min(runs.count, view.runsOffset + page))" }
        }
        let inner = BoxFrame(title: title, borderStyle: theme[.focus], titleStyle: theme[.title], glyphs: glyphs.box,
            fillStyle: theme[.text]).render(into: &buffer, area: layout.body)
        guard inner.height >= 4 else { return }
        // Enter is named only where it does something: among shells' runs.
        let play = runs.contains { $0.kind == HistoryView.shellKind } ? "Enter play  " : ""
        drawHistoryHint(view, keys: "\(glyphs.upDown) select  \(play)u undo  Tab updates  / filter  Esc h q close", into: &buffer,
                        area: inner.row(inner.height - 1), state: state, theme: theme)
        let columns = JobRunColumns(width: inner.width)
        switch view.shownRuns {
        case .loading:
            return
        case .unavailable(let reason):
            TextLine(sanitizer.sanitize(reason, maxWidth: inner.width), style: theme[.status], ellipsis: glyphs.box.ellipsis)
                .render(into: &buffer, area: inner.row(0))
            return
        case .rows(let all):
            columns.drawHeadings(into: &buffer, y: inner.y, x: inner.x, style: theme[.dim])
            if runs.isEmpty {
                TextLine(all.isEmpty ? "no job runs yet" : "no run matches", style: theme[.dim]).render(into: &buffer, area: inner.row(1))
                return
            }
        }
        for (line, run) in runs.enumerated().dropFirst(view.runsOffset).prefix(page) {
            let y = inner.y + 1 + line - view.runsOffset
            drawJobRun(run, selected: line == view.selectedRun, columns: columns, into: &buffer, x: inner.x, y: y,
                       width: inner.width, state: state, theme: theme)
        }
        if let selected = view.selectedRunRow {
            let detail = selected.notUndoableBecause.map { "not undoable: " + $0 }
                ?? (selected.packages.isEmpty ? "no packages changed" : selected.packages.joined(separator: ", "))
            TextLine(sanitizer.sanitize(detail), style: theme[selected.undoable ? .text : .dim], ellipsis: glyphs.box.ellipsis)
                .render(into: &buffer, area: inner.row(inner.height - 2))
        }
    }

    private static func drawJobRun(
        _ run: JobRunRow, selected: Bool, columns: JobRunColumns, into buffer: inout Buffer, x: Int, y: Int, width: Int,
        state: MonitorState, theme: Theme
    ) {
        let glyphs = state.glyphs
        let ellipsis = glyphs.box.ellipsis
        let code = run.resultCode ?? .inProgress
        // The selected run is drawn in the selection's colours from end to end, as the panes do.
        func style(_ role: ThemeRole) -> Style { selected ? theme[.selection] : theme[role] }
        if selected { buffer.fill(Rect(x: x, y: y, width: width, height: 1), style: theme[.selection]) }
        if let date = run.date {
            buffer.write(HistoryColumns.dateText(date, timeZone: state.timeZone ?? .current, withYear: columns.showsYear),
                x: x, y: y, style: style(.dim), maxWidth: columns.date)
        }
        buffer.set(glyphs.mark(for: code), x: x + columns.markX, y: y, style: style(role(for: code)))
        if columns.word > 0 {
            buffer.write(run.resultCode?.jobWord ?? "running", x: x + columns.wordX, y: y, style: style(role(for: code)), maxWidth: columns.word)
        }
        TextLine(String(run.id), style: style(.text), alignment: .right)
            .render(into: &buffer, area: Rect(x: x + columns.runX, y: y, width: columns.run, height: 1))
        func cell(_ text: String, at column: Int, width: Int, style: Style) {
            guard width > 0 else { return }
            let clean = glyphs.sanitizer.sanitize(text, maxWidth: width)
            buffer.write(TextTruncation.truncate(clean, toWidth: width, ellipsis: ellipsis), x: x + column, y: y, style: style)
        }
        cell(run.kind, at: columns.kindX, width: columns.kind, style: style(.dim))
        cell(run.undoable ? "yes" : "no", at: columns.undoX, width: columns.undo, style: style(run.undoable ? .succeeded : .dim))
        cell(run.name, at: columns.nameX, width: columns.name, style: style(.text))
    }
}
