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
        let rows = view.visibleRows
        guard let inner = drawHistoryList(
            view, list: nil, content: view.content, shown: rows.count, nouns: ("entry", "entries"), offset: view.offset,
            page: state.historyPageSize, keys: "\(state.glyphs.upDown) PgUp PgDn scroll  Tab job runs  / filter  Esc h q close",
            empty: ("no history yet", "no entry matches"), minimumHeight: 3, into: &buffer, layout: layout, state: state, theme: theme,
            headings: { HistoryColumns(width: $1.width).drawHeadings(into: &$0, y: $1.y, x: $1.x, style: theme[.dim]) })
        else { return }
        let columns = HistoryColumns(width: inner.width)
        let page = inner.height - 2
        for (line, row) in rows.dropFirst(view.offset).prefix(page).enumerated() {
            drawHistoryRow(row, columns: columns, into: &buffer, x: inner.x, y: inner.y + 1 + line, state: state, theme: theme)
        }
    }

    /// Either list of the history overlay but its rows: its frame over the panes, the keys on
    /// its last line (`drawHistoryHint`), and the top of the list. The frame's title names the
    /// host and the `list`, then how many rows `content` holds (`nouns`), or how many of them
    /// match the filter (`shown`), and which of those the page shows from `offset`. The top is
    /// nothing while the list loads, why it cannot be read, or its `headings` (drawn at the
    /// inside's top left) and, when no row is `shown`, that there are none (`empty.none`) or
    /// that none matches the filter (`empty.noMatch`). The frame's inside when the rows follow
    /// below the headings; `nil` when they do not, or when the inside is lower than
    /// `minimumHeight`.
    static func drawHistoryList<Row>(
        _ view: HistoryView, list: String?, content: HistoryListContent<Row>, shown: Int, nouns: (one: String, many: String),
        offset: Int, page: Int, keys: String, empty: (none: String, noMatch: String), minimumHeight: Int, into buffer: inout Buffer,
        layout: MonitorLayout, state: MonitorState, theme: Theme, headings: (inout Buffer, Rect) -> Void
    ) -> Rect? {
        let glyphs = state.glyphs
        var title = view.host.map { "History of \(glyphs.sanitizer.sanitize($0))" } ?? "History"
        if let list { title += glyphs.separator + list }
        switch content {
        case .loading: title += glyphs.separator + "loading" + String(glyphs.box.ellipsis)
        case .unavailable: break
        case .rows(let all):
            title += glyphs.separator
            title += view.filterText.isEmpty ? "\(all.count) \(all.count == 1 ? nouns.one : nouns.many)" : "\(shown)/\(all.count) match"
            if shown > 0 { title += glyphs.separator + "\(offset + 1)-\(min(shown, offset + page))" }
        }
        let inner = BoxFrame(title: title, borderStyle: theme[.focus], titleStyle: theme[.title], glyphs: glyphs.box,
            fillStyle: theme[.text]).render(into: &buffer, area: layout.body)
        guard inner.height >= minimumHeight else { return nil }
        drawHistoryHint(view, keys: keys, into: &buffer, area: inner.row(inner.height - 1), state: state, theme: theme)
        switch content {
        case .loading:
            return nil
        case .unavailable(let reason):
            TextLine(glyphs.sanitizer.sanitize(reason, maxWidth: inner.width), style: theme[.status], ellipsis: glyphs.box.ellipsis)
                .render(into: &buffer, area: inner.row(0))
            return nil
        case .rows(let all):
            headings(&buffer, inner)
            guard shown > 0 else {
                TextLine(all.isEmpty ? empty.none : empty.noMatch, style: theme[.dim]).render(into: &buffer, area: inner.row(1))
                return nil
            }
            return inner
        }
    }

    /// One cell of a row of either list: `text` cleaned and cut to `width`, at `column` of the
    /// row at `x`, `y`; nothing for a column not shown (`width` 0).
    static func drawHistoryCell(_ text: String, at column: Int, width: Int, style: Style, x: Int, y: Int, into buffer: inout Buffer,
                                glyphs: MonitorGlyphs) {
        guard width > 0 else { return }
        let clean = glyphs.sanitizer.sanitize(text, maxWidth: width)
        buffer.write(TextTruncation.truncate(clean, toWidth: width, ellipsis: glyphs.box.ellipsis), x: x + column, y: y, style: style)
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
        columns.result.draw(date: row.date, mark: glyphs.mark(for: row.resultCode), resultWord: row.resultCode.word, into: &buffer, x: x, y: y,
                            timeZone: state.timeZone ?? .current, dateStyle: theme[.dim], resultStyle: theme[role(for: row.resultCode)])
        if let duration = row.duration {
            TextLine(duration.shortText, style: theme[.text], alignment: .right)
                .render(into: &buffer, area: Rect(x: x + columns.durationX, y: y, width: columns.duration, height: 1))
        }
        func cell(_ text: String, at column: Int, width: Int, style: Style) {
            drawHistoryCell(text, at: column, width: width, style: style, x: x, y: y, into: &buffer, glyphs: glyphs)
        }
        cell(row.updateID, at: columns.idX, width: columns.id, style: theme[.dim])
        var title = row.title
        if let reason = row.reason, row.resultCode == .failed || row.resultCode == .aborted { title += ": " + reason }
        cell(title, at: columns.titleX, width: columns.title, style: theme[.text])
        cell(row.jobName, at: columns.jobX, width: columns.job, style: theme[.dim])
    }
}
