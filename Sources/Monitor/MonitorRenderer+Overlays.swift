import InstallEngine
import TerminalUI

extension MonitorRenderer {
    static func drawOverlay(_ overlay: MonitorOverlay, into buffer: inout Buffer, layout: MonitorLayout, state: MonitorState, theme: Theme) {
        switch overlay {
        case .help(let scroll):
            drawHelp(scroll: scroll, into: &buffer, state: state, theme: theme)
        case .confirm(let question):
            drawConfirmation(question, into: &buffer, layout: layout, state: state, theme: theme)
        case .fullOutput(let job, let index, let scroll):
            guard let job = state.queue.job(job), job.updates.indices.contains(index) else { return }
            let update = job.updates[index]
            let glyphs = state.glyphs
            let count = update.output.lines.count
            var title = "Output" + glyphs.separator + glyphs.sanitizer.sanitize(update.update.title, maxWidth: state.width)
            let summary = resultSummary(of: update, state: state)
            // The result line takes the first row; the output the rest.
            let rows = MonitorLayout.innerRows(layout.body) - (summary == nil ? 0 : 1)
            let last = max(0, count - scroll)
            title += glyphs.separator + "lines \(max(1, last - rows + 1))-\(last) of \(count)"
            if update.output.droppedCount > 0 { title += " (\(update.output.droppedCount) older dropped)" }
            title += glyphs.separator + "Esc closes"
            let inner = BoxFrame(title: title, borderStyle: theme[.focus], titleStyle: theme[.title], glyphs: glyphs.box,
                fillStyle: theme[.text]).render(into: &buffer, area: layout.body)
            var outputArea = inner
            if let summary {
                let code = update.result.resultCode
                buffer.set(glyphs.mark(for: code), x: inner.x, y: inner.y, style: theme[role(for: code)])
                TextLine(summary, style: theme[role(for: code)], ellipsis: glyphs.box.ellipsis)
                    .render(into: &buffer, area: Rect(x: inner.x + 2, y: inner.y, width: max(0, inner.width - 2), height: 1))
                outputArea = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: max(0, inner.height - 1))
            }
            drawOutputLines(update.output, scroll: scroll, into: &buffer, area: outputArea, state: state, theme: theme)
        case .jobDetail(let job, let scroll):
            drawJobDetail(job: job, scroll: scroll, into: &buffer, layout: layout, state: state, theme: theme)
        case .history(let view):
            if view.mode == .runs {
                drawJobRuns(view, into: &buffer, layout: layout, state: state, theme: theme)
            } else {
                drawHistory(view, into: &buffer, layout: layout, state: state, theme: theme)
            }
        case .rollout:
            drawRolloutDialog(RolloutDialog(state: state), into: &buffer, state: state, theme: theme)
        }
    }

    /// `failed · 0x8024200B · exit 3 · 0:05 · exited with status 3`: what became of a
    /// finished update, above its output; `nil` while it is queued or running.
    static func resultSummary(of update: UpdateState, state: MonitorState) -> String? {
        let result = update.result
        guard result.resultCode.isFinal else { return nil }
        var parts = [result.resultCode.word, result.hResult.description]
        if result.unmappedResultCode != 0 { parts.append("exit \(result.unmappedResultCode)") }
        if let duration = result.duration { parts.append(TimeText.elapsed(Double(duration.components.seconds))) }
        if result.rebootRequired { parts.append("reboot required") }
        if let reason = result.reason, !reason.isEmpty { parts.append(state.glyphs.sanitizer.sanitize(reason, maxWidth: state.width)) }
        return parts.joined(separator: state.glyphs.separator)
    }

    private static func centredBox(width: Int, height: Int, in area: Rect) -> Rect {
        let boxWidth = min(width, area.width)
        let boxHeight = min(height, area.height)
        return Rect(x: area.x + (area.width - boxWidth) / 2, y: area.y + (area.height - boxHeight) / 2, width: boxWidth, height: boxHeight)
    }

    private static func drawHelp(scroll: Int, into buffer: inout Buffer, state: MonitorState, theme: Theme) {
        let help = HelpView(state: state)
        let inner = BoxFrame(title: "Keys", borderStyle: theme[.focus], titleStyle: theme[.title], glyphs: state.glyphs.box,
            fillStyle: theme[.text]).render(into: &buffer, area: help.box)
        guard inner.height > 0 else { return }
        let first = min(max(0, scroll), help.maximumScroll)
        let actionWidth = max(0, inner.width - help.keyWidth - 2)
        for (row, line) in help.lines.dropFirst(first).prefix(help.page).enumerated() where row < inner.height - 1 {
            let y = inner.y + row
            buffer.write(line.keys, x: inner.x + 1, y: y, style: theme[.title], maxWidth: help.keyWidth)
            buffer.write(line.action, x: inner.x + help.keyWidth + 2, y: y, style: theme[.text], maxWidth: actionWidth)
        }
        TextLine(help.footer(scroll: first, width: inner.width, upDown: state.glyphs.upDown), style: theme[.dim], alignment: .center,
                 ellipsis: state.glyphs.box.ellipsis)
            .render(into: &buffer, area: inner.row(inner.height - 1))
    }

    private static func drawConfirmation(
        _ question: Confirmation, into buffer: inout Buffer, layout: MonitorLayout, state: MonitorState, theme: Theme
    ) {
        let lines: [String]
        switch question {
        case .abortJob(let job, let name):
            // What happens to the running update depends on the job's kind (rules 11 and 24).
            let consequence = state.queue.job(job).flatMap { JobStopBehaviour($0.descriptor).consequence }
            lines = ["Abort \(state.glyphs.sanitizer.sanitize(name))?"] + [consequence].compactMap { $0 }
        case .abortAll(let count):
            let unfinished = state.abortAllScope.filter { $0.phase != .completed }.map(\.descriptor)
            let host = state.board != nil ? state.selectedHost.map { " on \(state.glyphs.sanitizer.sanitize($0))" } ?? "" : ""
            lines = ["Abort \(count == 1 ? "the 1 unfinished job" : "all \(count) unfinished jobs")\(host)?"]
                + JobStopBehaviour.consequences(of: unfinished)
        case .quit(let count):
            lines = ["\(count) \(count == 1 ? "job has" : "jobs have") not completed.", "Quit and abort \(count == 1 ? "it" : "them")?"]
        case .undoRun(let run, let host):
            lines = ["Undo run \(run) on \(state.glyphs.sanitizer.sanitize(host))?",
                     "Its engine plans the undo; nothing runs before its plan's yes."]
        case .startJob(let job, let name, _, let scroll):
            drawPlanDialog(PlanDialog(job: job, name: name, state: state), scroll: scroll, into: &buffer, state: state, theme: theme)
            return
        case .restartServices(let plan, let scroll):
            drawRestartDialog(RestartDialog(plan: plan, state: state), scroll: scroll, into: &buffer, state: state, theme: theme)
            return
        case .quitRollout(let left, let running):
            lines = ["Leave the board with \(left) \(left == 1 ? "host" : "hosts") of the rollout not started?",
                     "They are declined and run nothing; the \(running) running go on in their engines."]
        }
        // Each sentence wrapped to the box, the question in the status colour; the keys last.
        let boxWidth = min(50, layout.body.width)
        let rows = lines.enumerated().flatMap { index, line in
            TextWrapping.wrap([line], width: max(1, boxWidth - 4)).map { (text: $0, isQuestion: index == 0) }
        }
        let box = centredBox(width: boxWidth, height: rows.count + 4, in: layout.body)
        let inner = BoxFrame(title: "Confirm", borderStyle: theme[.focus], titleStyle: theme[.title], glyphs: state.glyphs.box,
            fillStyle: theme[.text]).render(into: &buffer, area: box)
        for (row, line) in rows.enumerated() where row < inner.height - 1 {
            TextLine(line.text, style: line.isQuestion ? theme[.status] : theme[.text], alignment: .center, ellipsis: state.glyphs.box.ellipsis)
                .render(into: &buffer, area: inner.row(row))
        }
        TextLine("y yes    n no", style: theme[.title], alignment: .center).render(into: &buffer, area: inner.row(inner.height - 1))
    }

    /// One package of a plan in `area`: its mark and word (removals in the failure colour),
    /// `wordWidth` columns, then the package and versions, `essential` in the warning colour.
    static func drawPlanRow(_ row: PlanDialog.Row, into buffer: inout Buffer, area: Rect, wordWidth: Int, state: MonitorState, theme: Theme) {
        let glyphs = state.glyphs
        let role: ThemeRole
        switch row.action {
        case .remove?, .purge?: role = .failed
        case .upgrade?, .reinstall?: role = .running
        case .install?: role = .succeeded
        case nil: role = .queued
        }
        var x = area.x
        let mark = row.downgrade ? glyphs.downgrade : row.action.map(glyphs.mark(for:)) ?? glyphs.queued
        x += buffer.set(mark, x: x, y: area.y, style: theme[role])
        x += buffer.write(" " + TextTruncation.fit(row.word, toWidth: wordWidth), x: x, y: area.y, style: theme[role], maxWidth: area.maxX - x)
        let marker = row.essential ? " essential" : ""
        let textWidth = max(0, area.maxX - x - DisplayWidth.of(marker))
        x += buffer.write(TextTruncation.truncate(row.text, toWidth: textWidth, ellipsis: glyphs.box.ellipsis), x: x, y: area.y,
                          style: theme[.text], maxWidth: textWidth)
        if row.essential { buffer.write(marker, x: x, y: area.y, style: theme[.warning], maxWidth: area.maxX - x) }
    }

    /// The start question of a plan: the question and counts, the Essential warning, the plan
    /// (a mark and a word per package, removals in the failure colour, `essential` in the
    /// warning colour) scrolled `scroll` rows, and the keys with where the plan is scrolled to.
    private static func drawPlanDialog(_ dialog: PlanDialog, scroll: Int, into buffer: inout Buffer, state: MonitorState, theme: Theme) {
        let glyphs = state.glyphs
        let (inner, belowHeading) = drawDialogFrame(title: "Confirm", box: dialog.box, heading: dialog.heading, into: &buffer, state: state,
                                                    theme: theme)
        var y = belowHeading
        for line in dialog.warning where y < inner.maxY {
            buffer.write(line, x: inner.x, y: y, style: theme[.warning], maxWidth: inner.width)
            y += 1
        }
        y += dialog.gap
        let first = min(max(0, scroll), dialog.maximumScroll)
        let wordWidth = 10
        for row in dialog.rows.dropFirst(first).prefix(dialog.listHeight) where y < inner.maxY - 1 {
            drawPlanRow(row, into: &buffer, area: inner.row(y - inner.y), wordWidth: wordWidth, state: state, theme: theme)
            y += 1
        }
        let count = dialog.rows.count
        let answers = "y runs the \(count) \(count == 1 ? "update" : "updates") planned; n runs nothing."
        drawDialogKeys(answers, first: first, shown: dialog.listHeight, of: count, scrolls: dialog.maximumScroll > 0, inside: inner,
                       into: &buffer, glyphs: glyphs, theme: theme)
    }
}
