#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TerminalUI
import RestartScan

/// Draws a `MonitorState` into a `Buffer` (pure: no terminal, no clock). Only visible rows are
/// looked at, so a queue of ten thousand updates costs no more to draw than a short one.
///
/// Layout: a header line (counts, overall bar, reboot mark), the jobs pane, the updates pane of
/// the selected job, the output pane of the selected update, a footer of keys or the status
/// message, and any overlay on top. Below 40×12 only a "terminal too small" message is drawn.
/// All text from jobs and children is sanitized before it is drawn.
public enum MonitorRenderer {
    /// The frame for `state` in `theme`, `state.width` × `state.height` cells.
    public static func render(_ state: MonitorState, theme: Theme) -> Buffer {
        var buffer = Buffer(width: state.width, height: state.height, filledWith: Cell(style: theme[.text]))
        let layout = state.layout
        if layout.isTooSmall {
            drawTooSmall(into: &buffer, state: state, theme: theme)
            return buffer
        }
        if state.board != nil {
            drawBoardHeader(into: &buffer, area: layout.header, state: state, theme: theme)
            drawBoard(into: &buffer, area: layout.jobs, state: state, theme: theme)
        } else {
            drawHeader(into: &buffer, area: layout.header, state: state, theme: theme)
            drawJobs(into: &buffer, area: layout.jobs, state: state, theme: theme)
        }
        drawUpdates(into: &buffer, area: layout.updates, state: state, theme: theme)
        drawOutput(into: &buffer, area: layout.output, state: state, theme: theme)
        drawFooter(into: &buffer, area: layout.footer, state: state, theme: theme)
        if let overlay = state.overlay {
            drawOverlay(overlay, into: &buffer, layout: layout, state: state, theme: theme)
        }
        return buffer
    }

    // MARK: - Too small

    private static func drawTooSmall(into buffer: inout Buffer, state: MonitorState, theme: Theme) {
        let times = state.glyphs.box == .ascii ? "x" : "×"
        let need = "(need \(MonitorLayout.minimumWidth)\(times)\(MonitorLayout.minimumHeight))"
        let lines = buffer.width >= 32 ? ["terminal too small " + need] : ["terminal too small", need]
        let top = max(0, (buffer.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            TextLine(line, style: theme[.status], alignment: .center, ellipsis: state.glyphs.box.ellipsis)
                .render(into: &buffer, area: buffer.area.row(top + offset))
        }
    }

    // MARK: - Header

    private static func drawHeader(into buffer: inout Buffer, area: Rect, state: MonitorState, theme: Theme) {
        buffer.fill(area, style: theme[.header])
        var x = area.x
        x += buffer.write(" installtop  ", x: x, y: area.y, style: theme[.header].overlaid(by: theme[.title]))
        let jobs = state.queue.jobs
        let separator = state.glyphs.separator
        var rebootText = ""
        if state.rebootRequired || state.newestRestartAdvice?.rebootRequired == true {
            rebootText = "\(state.glyphs.reboot) reboot\(area.width >= 80 ? " required" : "") "
        }
        let restartText = state.restartHeaderText(wide: area.width >= 80)
        if !restartText.isEmpty { rebootText = restartText + (rebootText.isEmpty ? " " : separator) + rebootText }
        if let armed = state.armedHeaderText { rebootText = armed + (rebootText.isEmpty ? " " : separator) + rebootText }
        let rebootWidth = DisplayWidth.of(rebootText)
        let room = area.maxX - rebootWidth
        guard !jobs.isEmpty else {
            buffer.write(state.startingNote ?? "no jobs", x: x, y: area.y, style: theme[.header], maxWidth: room - x)
            drawReboot(rebootText, into: &buffer, area: area, theme: theme)
            return
        }
        var counts = JobCounts(total: 0)
        var done = 0.0
        for job in jobs {
            counts = counts + state.counts(of: job)
            // How far each job really got, as its own row and title say: an aborted or failed
            // job counts what it installed, so a queue that stopped early never reads 100 %.
            done += state.percentShown(of: job) / 100 * Double(job.updates.count)
        }
        let updates = counts.total
        // A job that only waits for its restart scan has nothing left running.
        let running = jobs.count { $0.phase == .running && !$0.onlyAwaitsRestartScan }
        // A fleet (every job a host a driver declared): hosts and tasks, and how many hosts are
        // done and failed, which is what an operator patching a fleet watches.
        let fleet = jobs.allSatisfy(\.descriptor.declaredByDriver)
        let updateCount = counts.text + " " + (fleet ? "tasks" : "updates")
        var runningCount = "\(running) running" + separator + updateCount
        if fleet {
            let done = jobs.count { $0.phase == .completed }
            // Failed and aborted apart: hosts stopped by `A` did not fail.
            let failed = jobs.count { $0.phase == .completed && $0.shownResultCode == .failed }
            let aborted = jobs.count { $0.phase == .completed && $0.shownResultCode == .aborted }
            runningCount = "\(running) running" + separator + "\(done) done" + (failed > 0 ? separator + "\(failed) failed" : "")
                + (aborted > 0 ? separator + "\(aborted) aborted" : "") + separator + updateCount
        }
        let jobWord = fleet ? (jobs.count == 1 ? "host" : "hosts") : (jobs.count == 1 ? "job" : "jobs")
        // Narrow headers drop the job count, then the running count. The job count gives way
        // to the queue's bar and percent too: they are what moves while a long update runs
        // (the restart advice on the right stays for as long as the monitor does).
        // What stands beside the bar: the separator before it, and the percent (5) and a gap (2)
        // after; a bar narrower than 4 is not drawn.
        let besideBar = DisplayWidth.of(separator) + 5 + 2
        let barRoom = besideBar + 4
        let full = "\(jobs.count) \(jobWord)" + separator + runningCount
        let countsText = [full, runningCount].first { DisplayWidth.of($0) + barRoom <= room - x }
            ?? [full, runningCount, updateCount].first { DisplayWidth.of($0) <= room - x } ?? updateCount
        x += buffer.write(countsText, x: x, y: area.y, style: theme[.header], maxWidth: room - x)
        let fraction = updates > 0 ? done / Double(updates) : 0
        let barWidth = min(16, room - x - besideBar)
        if barWidth >= 4 {
            x += buffer.write(separator, x: x, y: area.y, style: theme[.header])
            ProgressBar(.fraction(fraction), doneStyle: theme[.barDone], todoStyle: theme[.barTodo], glyphs: state.glyphs.box)
                .render(into: &buffer, area: Rect(x: x, y: area.y, width: barWidth, height: 1))
            x += barWidth
            let percent = TextTruncation.fit(percentText(fraction * 100), toWidth: 5, alignment: .right)
            buffer.write(percent, x: x, y: area.y, style: theme[.header], maxWidth: room - x)
        }
        drawReboot(rebootText, into: &buffer, area: area, theme: theme)
    }

    private static func drawReboot(_ text: String, into buffer: inout Buffer, area: Rect, theme: Theme) {
        guard !text.isEmpty else { return }
        let width = DisplayWidth.of(text)
        buffer.write(text, x: area.maxX - width, y: area.y, style: theme[.header].overlaid(by: theme[.reboot]))
    }

    // MARK: - Footer

    private static func drawFooter(into buffer: inout Buffer, area: Rect, state: MonitorState, theme: Theme) {
        let ellipsis = state.glyphs.box.ellipsis
        let sanitizer = state.glyphs.sanitizer
        if state.isEditingFilter {
            let cursor = state.glyphs.box == .ascii ? "_" : "▏"
            let text = " / " + sanitizer.sanitize(state.filterText) + cursor + "   Enter keeps, Esc clears"
            TextLine(text, style: theme[.status], ellipsis: ellipsis).render(into: &buffer, area: area)
            return
        }
        if let status = state.status {
            TextLine(" " + sanitizer.sanitize(status.text), style: theme[.status], ellipsis: ellipsis)
                .render(into: &buffer, area: area)
            return
        }
        if let quitPhase = state.quitPhase {
            let count = state.unfinishedJobCount
            let text = quitPhase == .waitingForAborts
                ? " Quitting: waiting for \(count) aborted \(count == 1 ? "job" : "jobs") to end · q kills them now"
                : " Quitting: killing \(count) \(count == 1 ? "job" : "jobs")"
            TextLine(text, style: theme[.status], ellipsis: ellipsis).render(into: &buffer, area: area)
            return
        }
        if case .fullOutput? = state.overlay {
            // The full output takes its own keys (MonitorOverlay.fullOutputScroll), not the main view's.
            let text = " \(state.glyphs.upDown) scroll  PgUp PgDn page  Home oldest  End newest  Esc close"
            TextLine(text, style: theme[.footer], ellipsis: ellipsis).render(into: &buffer, area: area)
            return
        }
        if case .jobDetail? = state.overlay {
            let text = " \(state.glyphs.upDown) scroll  PgUp PgDn page  Home top  End bottom  Esc close"
            TextLine(text, style: theme[.footer], ellipsis: ellipsis).render(into: &buffer, area: area)
            return
        }
        var text = MonitorKeyMap.footer(attached: state.isAttached, board: state.board != nil, upDown: state.glyphs.upDown, width: area.width)
        if !state.filterText.isEmpty {
            text = " filter: " + sanitizer.sanitize(state.filterText) + " (Esc clears) " + text
        }
        TextLine(text, style: theme[.footer], ellipsis: ellipsis).render(into: &buffer, area: area)
    }

    // MARK: - Shared

    /// `41%`; values are floored so that 100% means done, and brought into 0…100 (NaN is 0,
    /// `JobPercent(clamping:)`): a bar's fraction may be computed from anything.
    static func percentText(_ percent: Double) -> String {
        "\(Int(JobPercent(clamping: percent).value.rounded(.down)))%"
    }

    /// The border style of a pane: highlighted when it has the focus.
    static func borderStyle(focused: Bool, theme: Theme) -> Style {
        focused ? theme[.focus] : theme[.border]
    }

    /// The role for a result code.
    static func role(for code: OperationResultCode) -> ThemeRole {
        switch code {
        case .notStarted: return .queued
        case .inProgress: return .running
        case .succeeded: return .succeeded
        case .succeededWithErrors: return .warning
        case .failed: return .failed
        case .aborted: return .aborted
        }
    }
}
