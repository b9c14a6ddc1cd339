#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TerminalUI

extension MonitorRenderer {
    /// The history overlay over the panes: column headings, one line per entry (date in the
    /// state's time zone, result, duration, update id, title with the failure reason, job), and
    /// a line of keys or the filter being typed. Columns are dropped as the width shrinks:
    /// the result word below 70 columns, the year below 60, the id and job when the title would
    /// get under 30 columns.
    static func drawHistory(_ view: HistoryView, into buffer: inout Buffer, layout: MonitorLayout, state: MonitorState, theme: Theme) {
        let glyphs = state.glyphs
        let sanitizer = glyphs.sanitizer
        let rows = view.visibleRows
        var title = view.host.map { "History of \(sanitizer.sanitize($0))" } ?? "History"
        switch view.content {
        case .loading: title += glyphs.separator + "loading" + String(glyphs.box.ellipsis)
        case .unavailable: break
        case .rows(let all):
            title += glyphs.separator
            title += view.filterText.isEmpty ? "\(all.count) \(all.count == 1 ? "entry" : "entries")" : "\(rows.count)/\(all.count) match"
            if !rows.isEmpty {
                let page = state.historyPageSize
                title += glyphs.separator + "\(view.offset + 1)-\(min(rows.count, view.offset + page))"
            }
        }
        let inner = BoxFrame(title: title, borderStyle: theme[.focus], titleStyle: theme[.title], glyphs: glyphs.box,
            fillStyle: theme[.text]).render(into: &buffer, area: layout.body)
        guard inner.height >= 3 else { return }
        drawHistoryHint(view, keys: "\(glyphs.upDown) PgUp PgDn scroll  Tab job runs  / filter  Esc h q close", into: &buffer,
                        area: inner.row(inner.height - 1), state: state, theme: theme)
        let columns = HistoryColumns(width: inner.width)
        switch view.content {
        case .loading:
            return
        case .unavailable(let reason):
            TextLine(sanitizer.sanitize(reason, maxWidth: inner.width), style: theme[.status], ellipsis: glyphs.box.ellipsis)
                .render(into: &buffer, area: inner.row(0))
            return
        case .rows(let all):
            columns.drawHeadings(into: &buffer, y: inner.y, x: inner.x, style: theme[.dim])
            if rows.isEmpty {
                TextLine(all.isEmpty ? "no history yet" : "no entry matches", style: theme[.dim])
                    .render(into: &buffer, area: inner.row(1))
                return
            }
        }
        let page = inner.height - 2
        for (line, row) in rows.dropFirst(view.offset).prefix(page).enumerated() {
            drawHistoryRow(row, columns: columns, into: &buffer, x: inner.x, y: inner.y + 1 + line, state: state, theme: theme)
        }
    }

    /// The history view's last line, for either list: the filter being typed, or the list's
    /// `keys` after the filter in force.
    static func drawHistoryHint(_ view: HistoryView, keys: String, into buffer: inout Buffer, area: Rect, state: MonitorState, theme: Theme) {
        let sanitizer = state.glyphs.sanitizer
        let text: String
        if view.isEditingFilter {
            let cursor = state.glyphs.box == .ascii ? "_" : "▏"
            text = "/ " + sanitizer.sanitize(view.filterText) + cursor + "   Enter keeps, Esc clears"
        } else {
            let filter = view.filterText.isEmpty ? "" : "filter: " + sanitizer.sanitize(view.filterText) + state.glyphs.separator
            text = filter + keys
        }
        TextLine(text, style: view.isEditingFilter ? theme[.status] : theme[.dim], ellipsis: state.glyphs.box.ellipsis)
            .render(into: &buffer, area: area)
    }

    private static func drawHistoryRow(
        _ row: HistoryRow, columns: HistoryColumns, into buffer: inout Buffer, x: Int, y: Int, state: MonitorState, theme: Theme
    ) {
        let glyphs = state.glyphs
        let ellipsis = glyphs.box.ellipsis
        let style = theme[role(for: row.resultCode)]
        if let date = row.date {
            buffer.write(HistoryColumns.dateText(date, timeZone: state.timeZone ?? .current, withYear: columns.showsYear),
                x: x, y: y, style: theme[.dim], maxWidth: columns.date)
        }
        buffer.set(glyphs.mark(for: row.resultCode), x: x + columns.markX, y: y, style: style)
        if columns.word > 0 {
            buffer.write(row.resultCode.word, x: x + columns.wordX, y: y, style: style, maxWidth: columns.word)
        }
        if let duration = row.duration {
            TextLine(duration.shortText, style: theme[.text], alignment: .right)
                .render(into: &buffer, area: Rect(x: x + columns.durationX, y: y, width: columns.duration, height: 1))
        }
        func cell(_ text: String, at column: Int, width: Int, style: Style) {
            guard width > 0 else { return }
            let clean = glyphs.sanitizer.sanitize(text, maxWidth: width)
            buffer.write(TextTruncation.truncate(clean, toWidth: width, ellipsis: ellipsis), x: x + column, y: y, style: style)
        }
        cell(row.updateID, at: columns.idX, width: columns.id, style: theme[.dim])
        var title = row.title
        if let reason = row.reason, row.resultCode == .failed || row.resultCode == .aborted { title += ": " + reason }
        cell(title, at: columns.titleX, width: columns.title, style: theme[.text])
        cell(row.jobName, at: columns.jobX, width: columns.job, style: theme[.dim])
    }
}
