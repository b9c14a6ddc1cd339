import TerminalUI
import InstallEngine

extension MonitorRenderer {
    /// The question of `R`: the question, then a word and a unit (or process) per row, the
    /// restarts in the running colour, the left-out services in the warning colour, processes of
    /// no service dim; scrolled `scroll` rows, and the keys with where the list is scrolled to.
    static func drawRestartDialog(_ dialog: RestartDialog, scroll: Int, into buffer: inout Buffer, state: MonitorState, theme: Theme) {
        let glyphs = state.glyphs
        let (inner, belowHeading) = drawDialogFrame(title: "Confirm", box: dialog.box, heading: dialog.heading, into: &buffer, state: state, theme: theme)
        var y = belowHeading
        let first = min(max(0, scroll), dialog.maximumScroll)
        for row in dialog.rows.dropFirst(first).prefix(dialog.listHeight) where y < inner.maxY - 1 {
            let role: ThemeRole = switch row.kind {
            case .restart: .running
            case .leftOut: .warning
            case .bare: .dim
            }
            var x = inner.x
            x += buffer.write(TextTruncation.fit(row.word, toWidth: RestartDialog.wordWidth) + " ", x: x, y: y, style: theme[role],
                              maxWidth: inner.maxX - x)
            buffer.write(TextTruncation.truncate(row.text, toWidth: max(0, inner.maxX - x), ellipsis: glyphs.box.ellipsis), x: x, y: y,
                         style: theme[.text], maxWidth: inner.maxX - x)
            y += 1
        }
        let count = dialog.count
        let answers = "y restarts the \(count) \(count == 1 ? "service" : "services"); n restarts nothing."
        drawDialogKeys(answers, first: first, shown: dialog.listHeight, of: dialog.rows.count, scrolls: dialog.maximumScroll > 0,
                       inside: inner, into: &buffer, glyphs: glyphs, theme: theme)
    }

    /// A question's frame titled `title` over `box`, then its `heading` lines in the status
    /// colour, as many as fit; its inside, and the line below the heading.
    static func drawDialogFrame(title: String, box: Rect, heading: [String], into buffer: inout Buffer, state: MonitorState,
                                theme: Theme) -> (inner: Rect, y: Int) {
        let inner = BoxFrame(title: title, borderStyle: theme[.focus], titleStyle: theme[.title], glyphs: state.glyphs.box,
            fillStyle: theme[.text]).render(into: &buffer, area: box)
        var y = inner.y
        for line in heading where y < inner.maxY {
            buffer.write(line, x: inner.x, y: y, style: theme[.status], maxWidth: inner.width)
            y += 1
        }
        return (inner, y)
    }

    /// The keys' line of a question with a list, centred on the last line `inside` its frame:
    /// `answers` (`y runs …; n runs nothing.`), or shorter words when they do not fit; with
    /// where the list is, rows `first`+1 to `first`+`shown` of `count`, when it `scrolls`.
    static func drawDialogKeys(_ answers: String, first: Int, shown: Int, of count: Int, scrolls: Bool, inside inner: Rect,
                               into buffer: inout Buffer, glyphs: MonitorGlyphs, theme: Theme) {
        var candidates = [answers, "y yes    n no"]
        if scrolls {
            let position = "\(first + 1)-\(first + shown) of \(count)"
            candidates = [answers + "  \(glyphs.upDown) PgUp PgDn \(position)", "y yes    n no    \(glyphs.upDown) PgUp PgDn \(position)",
                          "y yes  n no  \(glyphs.upDown) \(position)"]
        }
        let keys = candidates.first { DisplayWidth.of($0) <= inner.width } ?? candidates[candidates.count - 1]
        TextLine(keys, style: theme[.title], alignment: .center, ellipsis: glyphs.box.ellipsis)
            .render(into: &buffer, area: inner.row(inner.height - 1))
    }

    /// The detail of job `job` over the body: its lines from `scroll` on, the title saying
    /// which lines show.
    static func drawJobDetail(job: Int, scroll: Int, into buffer: inout Buffer, layout: MonitorLayout, state: MonitorState, theme: Theme) {
        guard let detail = JobDetail(job: job, state: state), let name = state.queue.job(job)?.descriptor.name else { return }
        let glyphs = state.glyphs
        let rows = MonitorLayout.innerRows(layout.body)
        let first = min(max(0, scroll), detail.maximumScroll(page: rows))
        let last = min(detail.lines.count, first + rows)
        let title = "Job \(job)" + glyphs.separator + glyphs.sanitizer.sanitize(name, maxWidth: state.width) + glyphs.separator
            + "lines \(first + 1)-\(last) of \(detail.lines.count)" + glyphs.separator + "Esc closes"
        let inner = BoxFrame(title: title, borderStyle: theme[.focus], titleStyle: theme[.title], glyphs: glyphs.box,
            fillStyle: theme[.text]).render(into: &buffer, area: layout.body)
        for (row, line) in detail.lines[first..<last].enumerated() {
            TextLine(line.text, style: theme[line.role], ellipsis: glyphs.box.ellipsis).render(into: &buffer, area: inner.row(row))
        }
    }
}
