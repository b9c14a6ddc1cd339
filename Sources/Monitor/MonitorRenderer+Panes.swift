#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TerminalUI
import DequeModule

extension MonitorRenderer {
    // MARK: - Jobs

    static func drawJobs(into buffer: inout Buffer, area: Rect, state: MonitorState, theme: Theme) {
        let jobs = state.visibleJobs
        var title = "Jobs"
        if state.filter.isActive { title += "\(state.glyphs.separator)\(jobs.count)/\(state.queue.jobs.count)" }
        let inner = BoxFrame(
            title: title, borderStyle: borderStyle(focused: state.focusedPane == .jobs, theme: theme),
            titleStyle: theme[.title], glyphs: state.glyphs.box
        ).render(into: &buffer, area: area)
        guard !jobs.isEmpty else {
            let text = state.queue.jobs.isEmpty ? state.startingNote ?? "no jobs" : "no job matches"
            TextLine(text, style: theme[.dim], ellipsis: state.glyphs.box.ellipsis).render(into: &buffer, area: inner.row(0))
            return
        }
        let selectedRow = jobs.firstIndex { $0.id == state.selectedJobID }
        let starts = state.queuedStartEstimates()
        ListView(itemCount: jobs.count, selectedIndex: selectedRow, offset: state.jobsOffset, selectionStyle: theme[.selection])
            .render(into: &buffer, area: inner) { buffer, index, row, _ in
                drawJobRow(jobs[index], startsIn: starts[jobs[index].id], into: &buffer, row: row, state: state, theme: theme)
            }
    }

    static func drawJobRow(
        _ job: JobState, startsIn: TimeInterval?, into buffer: inout Buffer, row: Rect, state: MonitorState, theme: Theme
    ) {
        let glyphs = state.glyphs
        let code: OperationResultCode
        switch job.phase {
        case .queued: code = .notStarted
        case .running: code = .inProgress
        case .completed: code = job.shownResultCode ?? .failed
        }
        buffer.set(glyphs.mark(for: code), x: row.x, y: row.y, style: theme[role(for: code)])
        let waiting = state.pendingCleanUps.contains(job.id)
        // The result's word, as beside its glyph everywhere, and how many updates are done
        // when not all are: "failed 1/6", "aborted 1/3".
        var resultText = code.word
        let counts = state.counts(of: job)
        if job.phase == .completed, !counts.allDone { resultText += " " + counts.text }
        // "waiting to clean up…" and a long result take what they need from the name.
        // A driver's word on the whole job (apt's downloads, the repair after a forced abort)
        // takes what the name leaves, the name keeping up to a third of the row; it comes
        // before "killing…".
        let jobMessage = job.phase == .running ? job.jobMessage.map { glyphs.sanitizer.sanitize($0) } : nil
        let nameRoom = min(DisplayWidth.of(job.descriptor.name), row.width / 3)
        let wanted = waiting ? 20 : job.phase == .completed ? max(13, DisplayWidth.of(resultText))
            : jobMessage.map { max(13, min(DisplayWidth.of($0), row.width - 3 - nameRoom)) } ?? 13
        let statusWidth = min(wanted, max(0, row.width - 2 - 6))
        let nameWidth = max(0, row.width - 2 - statusWidth - 1)
        let name = glyphs.sanitizer.sanitize(job.descriptor.name, maxWidth: nameWidth)
        buffer.write(TextTruncation.truncate(name, toWidth: nameWidth, ellipsis: glyphs.box.ellipsis),
            x: row.x + 2, y: row.y, style: theme[.text])
        let status = Rect(x: row.maxX - statusWidth, y: row.y, width: statusWidth, height: 1)
        let ellipsis = String(glyphs.box.ellipsis)
        if waiting {
            TextLine("waiting to clean up" + ellipsis, style: theme[.dim], ellipsis: glyphs.box.ellipsis).render(into: &buffer, area: status)
            return
        }
        switch job.phase {
        case .queued where job.descriptor.awaitsConfirmation && !state.confirmedJobs.contains(job.id):
            TextLine("awaiting yes", style: theme[.status], ellipsis: glyphs.box.ellipsis).render(into: &buffer, area: status)
        case .queued where job.descriptor.declaredByDriver:
            // A host waiting for a fork or a later batch: its place among the waiting hosts.
            let position = state.queue.jobs.lazy.filter { $0.phase == .queued && $0.descriptor.declaredByDriver && $0.id < job.id }.count + 1
            TextLine("queued #\(position)", style: theme[.queued], ellipsis: glyphs.box.ellipsis).render(into: &buffer, area: status)
        case .queued:
            TextLine(queuedText(startsIn: startsIn, width: statusWidth), style: theme[.queued]).render(into: &buffer, area: status)
        case .running where jobMessage != nil:
            TextLine(jobMessage ?? "", style: theme[.status], ellipsis: glyphs.box.ellipsis).render(into: &buffer, area: status)
        case .running where job.abortRequested:
            let word = job.abortForced ? "killing" : job.descriptor.runByDriver ? "stopping" : "aborting"
            TextLine(word + ellipsis, style: theme[.aborted], ellipsis: glyphs.box.ellipsis)
                .render(into: &buffer, area: status)
        case .running:
            let barWidth = max(0, statusWidth - 5)
            ProgressBar(.fraction(job.percent / 100), doneStyle: theme[.barDone], todoStyle: theme[.barTodo], glyphs: glyphs.box)
                .render(into: &buffer, area: Rect(x: status.x, y: row.y, width: barWidth, height: 1))
            TextLine(percentText(job.percent), style: theme[.running], alignment: .right)
                .render(into: &buffer, area: Rect(x: status.x + barWidth, y: row.y, width: statusWidth - barWidth, height: 1))
        case .completed:
            TextLine(resultText, style: theme[role(for: code)], ellipsis: glyphs.box.ellipsis).render(into: &buffer, area: status)
        }
    }

    /// `starts in ~2m`, shortened to `in ~2m` or `queued` when the column is narrower.
    static func queuedText(startsIn: TimeInterval?, width: Int) -> String {
        guard let startsIn else { return "queued" }
        let time = "~" + TimeText.remaining(startsIn)
        return ["starts in " + time, "in " + time].first { DisplayWidth.of($0) <= width } ?? "queued"
    }

    // MARK: - Updates

    static func drawUpdates(into buffer: inout Buffer, area: Rect, state: MonitorState, theme: Theme) {
        let glyphs = state.glyphs
        let job = state.selectedJob
        var inner = BoxFrame(
            title: job.map { updatesTitle($0, state: state) } ?? "Updates",
            borderStyle: borderStyle(focused: state.focusedPane == .updates, theme: theme),
            titleStyle: theme[.title], glyphs: glyphs.box
        ).render(into: &buffer, area: area)
        guard let job else {
            if let host = state.selectedHost { drawHostState(host, into: &buffer, area: inner, state: state, theme: theme) }
            return
        }
        // A stale host's job: why its host is stale first, whole, in at most half the pane.
        if let host = state.host(ofJob: job.id).flatMap({ state.board?.host(named: $0) }), host.isStale {
            let lines = staleLinkLines(host, width: inner.width, state: state).prefix(inner.height / 2)
            for (index, line) in lines.enumerated() {
                TextLine(line.0, style: theme[line.1], ellipsis: glyphs.box.ellipsis).render(into: &buffer, area: inner.row(index))
            }
            inner = Rect(x: inner.x, y: inner.y + lines.count, width: inner.width, height: inner.height - lines.count)
        }
        let updates = state.visibleUpdates(of: job)
        let selectedRow = state.selectedUpdateIndex.flatMap { updates.row(of: $0) }
        // The rows on screen (as the list will scroll them) decide how much room must-read
        // texts get, so a failure's reason shows whole wherever the status text shows at all.
        let first = ListView.offset(itemCount: updates.count, selected: selectedRow, visibleRows: inner.height, previousOffset: state.updatesOffset)
        let wanted = (first..<min(updates.count, first + inner.height)).reduce(0) { widest, row in
            max(widest, mustReadWidth(of: job, index: updates[row], state: state))
        }
        let columns = UpdateColumns(width: inner.width, wantedMessage: wanted)
        ListView(itemCount: updates.count, selectedIndex: selectedRow, offset: state.updatesOffset, selectionStyle: theme[.selection])
            .render(into: &buffer, area: inner) { buffer, row, rect, _ in
                drawUpdateRow(job: job, index: updates[row], columns: columns, into: &buffer, row: rect, state: state, theme: theme)
            }
    }

    /// `Security updates · install · 3/8 · 41% · ETA 1m20s`; a completed job's result before its
    /// count, and what it ignored after its percent: `web1 · install · failed 1/6 · 100% · 2 lines
    /// ignored`.
    private static func updatesTitle(_ job: JobState, state: MonitorState) -> String {
        let separator = state.glyphs.separator
        var title = state.glyphs.sanitizer.sanitize(job.descriptor.name, maxWidth: state.width)
        if let host = state.host(ofJob: job.id) {
            title = state.glyphs.sanitizer.sanitize(host, maxWidth: state.width) + ": " + title
            if let age = state.staleAge(ofHost: host) { title += separator + "stale " + TimeText.elapsed(age) }
        }
        title += separator + job.descriptor.operation.name
        let result = job.phase == .completed ? job.shownResultCode.map { $0.word + " " } ?? "" : ""
        title += separator + result + state.counts(of: job).text
        title += separator + percentText(job.percentShown)
        if job.phase == .completed, let ignored = job.result?.ignoredLinesText { title += separator + ignored }
        if let eta = state.etaSeconds(job: job) { title += separator + "ETA " + TimeText.remaining(eta) }
        if job.phase == .queued, let start = state.queuedStartEstimates()[job.id] {
            title += separator + "starts in ~" + TimeText.remaining(start)
        }
        return title
    }

    private static func drawUpdateRow(
        job: JobState, index: Int, columns: UpdateColumns, into buffer: inout Buffer, row: Rect, state: MonitorState, theme: Theme
    ) {
        let glyphs = state.glyphs
        let update = job.updates[index]
        let code = update.result.resultCode
        let y = row.y
        buffer.set(glyphs.mark(for: update.result), x: row.x, y: y, style: theme[role(for: code)])
        let title = glyphs.sanitizer.sanitize(update.update.title, maxWidth: columns.title)
        buffer.write(TextTruncation.truncate(title, toWidth: columns.title, ellipsis: glyphs.box.ellipsis),
            x: row.x + columns.titleX, y: y, style: theme[.text])
        let bar = Rect(x: row.x + columns.barX, y: y, width: columns.bar, height: 1)
        let wordArea = Rect(x: bar.x, y: y, width: columns.bar + 1 + columns.percent, height: 1)
        switch code {
        case .notStarted:
            TextLine("queued", style: theme[.queued]).render(into: &buffer, area: wordArea)
        case .inProgress:
            if let percent = update.percent {
                ProgressBar(.fraction(percent / 100), doneStyle: theme[.barDone], todoStyle: theme[.barTodo], glyphs: glyphs.box)
                    .render(into: &buffer, area: bar)
                drawPercent(percent, x: row.x + columns.percentX, y: y, columns: columns, into: &buffer, style: theme[.running])
            } else {
                ProgressBar(.indeterminate(phase: state.phase / 2), doneStyle: theme[.running], todoStyle: theme[.barTodo], glyphs: glyphs.box)
                    .render(into: &buffer, area: bar)
            }
        case .succeeded where update.result.mark != nil:
            TextLine(update.result.mark?.word ?? "", style: theme[.dim]).render(into: &buffer, area: wordArea)
        case .succeeded, .succeededWithErrors:
            ProgressBar(.fraction(1), doneStyle: theme[.barDone], todoStyle: theme[.barTodo], glyphs: glyphs.box).render(into: &buffer, area: bar)
            drawPercent(100, x: row.x + columns.percentX, y: y, columns: columns, into: &buffer, style: theme[role(for: code)])
        case .failed, .aborted:
            // One that ran shows how far it got; one that never started says so in words.
            if update.startedAt != nil {
                ProgressBar(.fraction(update.percentReached / 100), doneStyle: theme[role(for: code)], todoStyle: theme[.barTodo],
                            glyphs: glyphs.box).render(into: &buffer, area: bar)
                drawPercent(update.percentReached, x: row.x + columns.percentX, y: y, columns: columns, into: &buffer,
                            style: theme[role(for: code)])
            } else {
                TextLine(code.word, style: theme[role(for: code)]).render(into: &buffer, area: wordArea)
            }
        }
        if columns.elapsed > 0, let elapsed = state.elapsedSeconds(job: job, index: index) {
            TextLine(TimeText.elapsed(elapsed), style: theme[.dim], alignment: .right)
                .render(into: &buffer, area: Rect(x: row.x + columns.elapsedX, y: y, width: columns.elapsed, height: 1))
        }
        if columns.eta > 0, let eta = state.etaSeconds(job: job, index: index) {
            TextLine(TimeText.remaining(eta), style: theme[.dim], alignment: .right)
                .render(into: &buffer, area: Rect(x: row.x + columns.etaX, y: y, width: columns.eta, height: 1))
        }
        if columns.message > 0 {
            drawUpdateMessage(job: job, index: index, area: Rect(x: row.x + columns.messageX, y: y, width: columns.message, height: 1),
                into: &buffer, state: state, theme: theme)
        }
    }

    private static func drawPercent(_ percent: Double, x: Int, y: Int, columns: UpdateColumns, into buffer: inout Buffer, style: Style) {
        TextLine(percentText(percent), style: style, alignment: .right)
            .render(into: &buffer, area: Rect(x: x, y: y, width: columns.percent, height: 1))
    }

    /// The text in an update's status column: the failure reason, the first reported error or
    /// the latest status, in the role it is drawn in; `mustRead` when it has to show whole (a
    /// reason why the update failed or was stopped, a reported error, the countdown to the kill
    /// of an update past its timeout); `leadMustRead` when at least its lead (`lead(of:)`) has
    /// to: what a stop does to the update (apt's `stopping after this package`, the repair after
    /// a forced abort) and why an update never started (`not started: the job was aborted`).
    private static func statusText(
        of job: JobState, index: Int, state: MonitorState
    ) -> (text: String?, role: ThemeRole, mustRead: Bool, leadMustRead: Bool) {
        let update = job.updates[index]
        switch update.result.resultCode {
        case .failed, .aborted:
            // An update that never started says that it did not, as its neighbours do: only as
            // far as why.
            let started = update.startedAt != nil
            return (update.result.reason ?? update.message, role(for: update.result.resultCode), started, !started)
        case .succeededWithErrors:
            return (update.result.reportedErrors.first ?? update.message, .warning, true, false)
        case .inProgress:
            let timedOut = update.update.timeout.map { limit in
                (state.elapsedSeconds(job: job, index: index) ?? 0) >= Double(limit.components.seconds)
            } ?? false
            return (update.message, .text, timedOut, job.abortRequested)
        case .notStarted, .succeeded:
            return (update.message, .text, false, false)
        }
    }

    /// The words of a status up to its first aside (` (`), second clause (`; `) or trailing
    /// ellipsis: `stopping after this package` of `stopping after this package (abort
    /// requested)`, `repairing: dpkg --configure -a` of `repairing: dpkg --configure -a …`; the
    /// whole text when it has none.
    private static func lead(of text: String) -> String {
        let ends = [" (", "; ", " …", " ..."].compactMap { text.firstRange(of: $0)?.lowerBound }
        return String(text[..<(ends.min() ?? text.endIndex)])
    }

    /// The columns update `index`'s status text needs to show whole (or up to its meaning, see
    /// `statusText`), with the reboot mark; 0 when it need not.
    private static func mustReadWidth(of job: JobState, index: Int, state: MonitorState) -> Int {
        let status = statusText(of: job, index: index, state: state)
        guard status.mustRead || status.leadMustRead, let text = status.text else { return 0 }
        let mark = job.updates[index].result.rebootRequired ? DisplayWidth.of(state.glyphs.reboot) + 1 : 0
        let needed = status.mustRead ? text : lead(of: text)
        return mark + DisplayWidth.of(state.glyphs.sanitizer.sanitize(needed, maxWidth: state.width))
    }

    /// The reboot mark, then the failure reason, the first reported error or the latest status.
    private static func drawUpdateMessage(job: JobState, index: Int, area: Rect, into buffer: inout Buffer, state: MonitorState, theme: Theme) {
        let glyphs = state.glyphs
        var x = area.x
        if job.updates[index].result.rebootRequired {
            x += buffer.write(glyphs.reboot + " ", x: x, y: area.y, style: theme[.reboot], maxWidth: area.width)
        }
        let status = statusText(of: job, index: index, state: state)
        guard let text = status.text, area.maxX > x else { return }
        let width = area.maxX - x
        var shown = glyphs.sanitizer.sanitize(text, maxWidth: width)
        // Cut, a status that must read to its meaning shows its lead whole rather than its
        // last word cut at the ellipsis.
        if status.leadMustRead, DisplayWidth.of(shown) > width {
            let words = glyphs.sanitizer.sanitize(lead(of: text), maxWidth: width)
            if DisplayWidth.of(words) <= width { shown = words }
        }
        // Cut, a failure's reason starts with the outcome's word: dpkg's `installed fleet-agent
        // packag…` alone reads like success (the whole reason is under Enter).
        let code = job.updates[index].result.resultCode
        if status.mustRead, code == .failed || code == .aborted, DisplayWidth.of(shown) > width {
            shown = code.word + ": " + shown
        }
        buffer.write(TextTruncation.truncate(shown, toWidth: width, ellipsis: glyphs.box.ellipsis), x: x, y: area.y, style: theme[status.role])
    }

    // MARK: - Output

    static func drawOutput(into buffer: inout Buffer, area: Rect, state: MonitorState, theme: Theme) {
        let glyphs = state.glyphs
        let update = state.selectedJob.flatMap { job in
            state.selectedUpdateIndex.flatMap { job.updates.indices.contains($0) ? job.updates[$0] : nil }
        }
        var title = "Output"
        if let update {
            title += glyphs.separator + glyphs.sanitizer.sanitize(update.update.title, maxWidth: state.width)
            if state.outputScroll > 0 { title += glyphs.separator + "\(state.outputScroll) lines back" }
        }
        let inner = BoxFrame(
            title: title, borderStyle: borderStyle(focused: state.focusedPane == .output, theme: theme),
            titleStyle: theme[.title], glyphs: glyphs.box
        ).render(into: &buffer, area: area)
        guard let update else { return }
        drawOutputLines(update.output, scroll: state.outputScroll, into: &buffer, area: inner, state: state, theme: theme)
    }

    /// The lines of `output` that fit in `area`, ending `scroll` lines before the newest; a
    /// line redrawn with carriage returns as a terminal shows it (`CarriageReturnRedraw`).
    static func drawOutputLines(_ output: OutputTail, scroll: Int, into buffer: inout Buffer, area: Rect, state: MonitorState, theme: Theme) {
        let glyphs = state.glyphs
        let lines = output.lines
        guard !lines.isEmpty else {
            TextLine("no output yet", style: theme[.dim]).render(into: &buffer, area: area.row(0))
            return
        }
        let end = max(0, lines.count - max(0, scroll))
        let start = max(0, end - area.height)
        for (offset, position) in (start..<end).enumerated() {
            // A line redrawn with carriage returns (dpkg's progress) shows as the terminal left it.
            let text = glyphs.sanitizer.sanitize(CarriageReturnRedraw.apply(lines[position].text), maxWidth: area.width)
            buffer.write(TextTruncation.truncate(text, toWidth: area.width, ellipsis: glyphs.box.ellipsis),
                x: area.x, y: area.y + offset, style: theme[.text])
        }
    }
}
