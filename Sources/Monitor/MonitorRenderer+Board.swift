#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TerminalUI

/// The grouped board (`installtop attach --host …`): the jobs pane as host rows, each with its
/// current job and that job's bar, expanded hosts' jobs under them; the header's host counts.
extension MonitorRenderer {
    // MARK: - Jobs pane

    static func drawBoard(into buffer: inout Buffer, area: Rect, state: MonitorState, theme: Theme) {
        let rows = state.boardRows
        let inner = BoxFrame(
            title: "Hosts", borderStyle: borderStyle(focused: state.focusedPane == .jobs, theme: theme),
            titleStyle: theme[.title], glyphs: state.glyphs.box
        ).render(into: &buffer, area: area)
        let selected = state.selectedBoardRow.flatMap { rows.firstIndex(of: $0) }
        let nameWidth = min(max(4, rows.compactMap { row -> Int? in
            if case .host(let name) = row { return DisplayWidth.of(name) }
            return nil
        }.max() ?? 4), max(4, inner.width / 3))
        let starts = state.queuedStartEstimates()
        ListView(itemCount: rows.count, selectedIndex: selected, offset: state.jobsOffset, selectionStyle: theme[.selection])
            .render(into: &buffer, area: inner) { buffer, index, row, _ in
                switch rows[index] {
                case .host(let name):
                    drawHostRow(name, nameWidth: nameWidth, into: &buffer, row: row, state: state, theme: theme)
                case .job(let id):
                    guard let job = state.queue.job(id) else { return }
                    let indented = Rect(x: row.x + 2, y: row.y, width: max(0, row.width - 2), height: 1)
                    // What the host said last, and how long ago: it may have moved on since. The
                    // mark takes its room from the job's name, never from its status ("aborted
                    // 1/3", "aborting…"): without its age, or not at all, when the row is narrow.
                    let stale = state.host(ofJob: id).flatMap { state.staleAge(ofHost: $0) }.flatMap { age in
                        [" stale " + TimeText.elapsed(age), " stale"].first { indented.width - DisplayWidth.of($0) >= Self.boardJobRowMinimum }
                    } ?? ""
                    let staleWidth = DisplayWidth.of(stale)
                    let jobRow = Rect(x: indented.x, y: row.y, width: indented.width - staleWidth, height: 1)
                    drawJobRow(job, startsIn: starts[id], into: &buffer, row: jobRow, state: state, theme: theme)
                    if staleWidth > 0 {
                        TextLine(stale, style: theme[.dim]).render(into: &buffer, area: Rect(x: jobRow.maxX, y: row.y, width: staleWidth, height: 1))
                    }
                }
            }
    }

    /// The narrowest job row that keeps its 13-column status whole: mark, a 5-column name, the
    /// blanks between.
    private static let boardJobRowMinimum = 2 + 5 + 1 + 13

    private static func drawHostRow(_ name: String, nameWidth: Int, into buffer: inout Buffer, row: Rect, state: MonitorState, theme: Theme) {
        guard let host = state.board?.host(named: name) else { return }
        let glyphs = state.glyphs
        let unicode = glyphs.box == GlyphSet.unicode
        let expanded = state.board?.expanded.contains(name) == true
        let job = state.currentJob(ofHost: name)
        let code: OperationResultCode
        switch (host.link, job?.phase) {
        case (.unreachable, _), (.silent, _): code = .failed
        case (_, .running?): code = .inProgress
        case (_, .completed?): code = job?.shownResultCode ?? .failed
        default: code = .notStarted
        }
        buffer.set(glyphs.mark(for: code), x: row.x, y: row.y, style: theme[role(for: code)])
        buffer.set(expanded ? (unicode ? "▾" : "v") : (unicode ? "▸" : ">"), x: row.x + 1, y: row.y, style: theme[.dim])
        if state.board?.marked.contains(name) == true { buffer.set(unicode ? "●" : "*", x: row.x + 2, y: row.y, style: theme[.status]) }
        let safeName = glyphs.sanitizer.sanitize(name, maxWidth: nameWidth)
        buffer.write(TextTruncation.truncate(safeName, toWidth: nameWidth, ellipsis: glyphs.box.ellipsis),
                     x: row.x + 3, y: row.y, style: theme[.title])
        let rest = Rect(x: row.x + 4 + nameWidth, y: row.y, width: max(0, row.width - 4 - nameWidth), height: 1)
        let ellipsis = glyphs.box.ellipsis
        switch host.link {
        case .unreachable(let reason, let since, _):
            // ssh's own words; how old the jobs shown are.
            let age = TimeText.elapsed(max(0, state.now.timeIntervalSince(since)))
            let text = (host.everConnected ? "unreachable, stale \(age): " : "unreachable \(age): ") + glyphs.sanitizer.sanitize(reason)
            TextLine(text, style: theme[.failed], ellipsis: ellipsis).render(into: &buffer, area: rest)
            return
        case .silent(let since):
            let age = TimeText.elapsed(max(0, state.now.timeIntervalSince(since)))
            TextLine("no answer for \(age), stale: its engine is silent, its link up", style: theme[.failed], ellipsis: ellipsis)
                .render(into: &buffer, area: rest)
            return
        case .connecting where !host.everConnected:
            TextLine("connecting" + String(ellipsis), style: theme[.dim], ellipsis: ellipsis).render(into: &buffer, area: rest)
            return
        case .connecting, .connected:
            break
        }
        // What the host would upgrade, once its engine said it: in place of "idle" (the row's
        // mark says idle already, and a narrow row keeps the counts) and of a completed job's
        // name (its result stays on the right); made only for such a row, since a running
        // job's row is drawn every frame.
        func pending() -> String? { state.pendingText(ofHost: name).map { glyphs.sanitizer.sanitize($0) } }
        guard let job else {
            TextLine(pending() ?? "idle", style: theme[.dim], ellipsis: ellipsis).render(into: &buffer, area: rest)
            return
        }
        let statusWidth = min(13, rest.width / 2)
        let named = glyphs.sanitizer.sanitize(job.descriptor.name)
        let jobName = job.phase == .completed ? pending() ?? named : named
        TextLine(jobName, style: theme[.text], ellipsis: ellipsis)
            .render(into: &buffer, area: Rect(x: rest.x, y: row.y, width: max(0, rest.width - statusWidth - 1), height: 1))
        let status = Rect(x: rest.maxX - statusWidth, y: row.y, width: statusWidth, height: 1)
        switch job.phase {
        case .running where job.abortRequested:
            TextLine((job.abortForced ? "killing" : "aborting") + String(ellipsis), style: theme[.aborted], ellipsis: ellipsis)
                .render(into: &buffer, area: status)
        case .running:
            // The bar of the job the row names, as its own row shows it: a count over every job
            // the host ever had read 73 % for a new job at 0/16.
            let fraction = state.percentShown(of: job) / 100
            let barWidth = max(0, statusWidth - 5)
            ProgressBar(.fraction(fraction), doneStyle: theme[.barDone], todoStyle: theme[.barTodo], glyphs: glyphs.box)
                .render(into: &buffer, area: Rect(x: status.x, y: row.y, width: barWidth, height: 1))
            TextLine(percentText(fraction * 100), style: theme[.running], alignment: .right)
                .render(into: &buffer, area: Rect(x: status.x + barWidth, y: row.y, width: statusWidth - barWidth, height: 1))
        case .queued where job.descriptor.awaitsConfirmation && !state.confirmedJobs.contains(job.id):
            TextLine(state.rolloutWord(ofJob: job.id) ?? "awaiting yes", style: theme[.status], ellipsis: ellipsis).render(into: &buffer, area: status)
        case .queued:
            TextLine("queued", style: theme[.queued], ellipsis: ellipsis).render(into: &buffer, area: status)
        case .completed:
            // An armed run's countdown, then how it ended, in place of the job's word.
            let word = state.armedWord(ofHost: name) ?? (code.word, role(for: code))
            TextLine(word.text, style: theme[word.role], ellipsis: ellipsis).render(into: &buffer, area: status)
        }
    }

    /// The updates pane of a host with no job: how its link stands, ssh's words whole.
    static func drawHostState(_ name: String, into buffer: inout Buffer, area: Rect, state: MonitorState, theme: Theme) {
        guard let host = state.board?.host(named: name) else { return }
        let sanitizer = state.glyphs.sanitizer
        var lines: [(String, ThemeRole)]
        switch host.link {
        case .connecting:
            lines = [("\(sanitizer.sanitize(name)): connecting" + String(state.glyphs.box.ellipsis), .dim)]
        case .connected:
            lines = [("\(sanitizer.sanitize(name)): idle, no jobs", .dim)]
            // The night's step whole, with why it failed (ssh's words can be long).
            if let step = state.board?.night?.steps[name] {
                lines += PlanDialog.wrap("night: " + sanitizer.sanitize(step), width: max(1, area.width)).map { ($0, .text) }
            }
            if let pending = state.pendingSummary(ofHost: name) { lines.append((sanitizer.sanitize(pending), .text)) }
            // What U would do, without pressing it: the packages, as `installtop pending` lists them.
            lines += state.pendingLines(ofHost: name).map { (sanitizer.sanitize($0.text), $0.security ? .failed : .text) }
        case .unreachable, .silent:
            lines = staleLinkLines(host, width: area.width, state: state)
        }
        for (index, line) in lines.prefix(area.height).enumerated() {
            TextLine(line.0, style: theme[line.1], ellipsis: state.glyphs.box.ellipsis).render(into: &buffer, area: area.row(index))
        }
    }

    /// Why a stale host is stale, whole (wrapped to `width`): ssh's words and the next try, or
    /// its engine's silence; empty for a current host. Above its jobs' updates too, since its
    /// row has room for only the start of them.
    static func staleLinkLines(_ host: BoardHost, width: Int, state: MonitorState) -> [(String, ThemeRole)] {
        let sanitizer = state.glyphs.sanitizer
        let name = sanitizer.sanitize(host.name)
        switch host.link {
        case .connecting, .connected:
            return []
        case .unreachable(let reason, let since, let retryAt):
            var lines: [(String, ThemeRole)] = [("\(name): unreachable for \(TimeText.elapsed(max(0, state.now.timeIntervalSince(since))))", .failed)]
            lines += PlanDialog.wrap(sanitizer.sanitize(reason), width: max(1, width)).map { ($0, .text) }
            let left = retryAt.timeIntervalSince(state.now)
            lines.append((left > 0 ? "next try in \(TimeText.remaining(left))" : "trying again" + String(state.glyphs.box.ellipsis), .dim))
            return lines
        case .silent(let since):
            return [("\(name): no answer for \(TimeText.elapsed(max(0, state.now.timeIntervalSince(since))))", .failed)]
                + PlanDialog.wrap("Its ssh link is up, but its engine has sent nothing since, nor answered the board's question: "
                                  + "stopped or hung. It is shown as it was, and is current again when it answers.",
                                  width: max(1, width)).map { ($0, .text) }
        }
    }

    // MARK: - Header

    /// `4 hosts · 1 connecting · 1 installing · 1 unreachable`, the zero counts left out, then
    /// on the right how many hosts need a reboot and have services to restart.
    static func drawBoardHeader(into buffer: inout Buffer, area: Rect, state: MonitorState, theme: Theme) {
        let counts = state.hostCounts
        let separator = state.glyphs.separator
        var parts = ["\(counts.total) \(counts.total == 1 ? "host" : "hosts")"]
        for (count, word) in [(counts.connecting, "connecting"), (counts.idle, "idle"), (counts.installing, "installing"),
                              (counts.failed, "failed"), (counts.unreachable, "unreachable")] where count > 0 {
            parts.append("\(count) \(word)")
        }
        if let night = state.board?.night { parts.append("night: " + state.glyphs.sanitizer.sanitize(night.headline)) }
        parts += state.rolloutHeaderParts + state.confirmWindowHeaderParts + state.refreshHeaderParts
        parts += state.boardOrderParts
        var right: [String] = []
        if counts.servicesToRestart > 0 { right.append("\(counts.servicesToRestart) with restarts") }
        if counts.rebootRequired > 0 { right.append("\(state.glyphs.reboot) \(counts.rebootRequired) reboot") }
        let rightText = right.isEmpty ? "" : right.joined(separator: separator) + " "
        let rightWidth = DisplayWidth.of(rightText)
        var x = area.x
        x += buffer.write(" installtop  ", x: x, y: area.y, style: theme[.header].overlaid(by: theme[.title]))
        // Two columns kept between the two sides, and a cut said with an ellipsis: cut short
        // against the right side, `1 at a time` and `1 with restarts` ran together.
        let leftWidth = max(0, area.maxX - rightWidth - x - (rightText.isEmpty ? 0 : 2))
        TextLine(parts.joined(separator: separator), style: theme[.header], ellipsis: state.glyphs.box.ellipsis)
            .render(into: &buffer, area: Rect(x: x, y: area.y, width: leftWidth, height: 1))
        if !rightText.isEmpty {
            buffer.write(rightText, x: area.maxX - rightWidth, y: area.y, style: theme[.header].overlaid(by: theme[.reboot]))
        }
    }
}
