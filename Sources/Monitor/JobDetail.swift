import InstallEngine
import RestartScan
import TerminalUI

/// The detail of one job (Enter in the jobs pane), as lines for `width` columns: its result,
/// then its restart advice (rule 32): the headline, the reasons for a reboot, the services
/// whose restart failed, and per service, session, container or bare group each process with
/// its pid, command, user and the replaced files it still uses, shortened to the width; then
/// the processes of other roots, left out; then the processes the scan could not read.
/// The renderer draws the lines and the keys scroll them.
struct JobDetail {
    /// One line and the colour it is drawn in.
    struct Line: Hashable {
        var text: String
        var role: ThemeRole
    }

    /// Below this many columns for the files, they go on a line of their own.
    static let minimumFilesWidth = 16

    let lines: [Line]

    /// The detail of `job` in `width` columns; child-made text goes through `glyphs`' sanitizer.
    /// `counts` are the job's (`JobCounts`, as the panes and the header count them).
    init(job: JobState, counts: JobCounts, width: Int, glyphs: MonitorGlyphs) {
        let sanitize = { (text: String) in glyphs.sanitizer.sanitize(text) }
        let wrap = { (text: String) in PlanDialog.wrap(text, width: max(1, width)) }
        var lines: [Line] = []
        lines.append(Self.headline(job: job, counts: counts, separator: glyphs.separator))
        lines.append(Line(text: "", role: .text))
        guard let advice = job.result?.restartAdvice else {
            let text = job.phase == .completed ? "Restarts: this job carries no restart scan (nothing ran, or a fleet host)"
                : "Restarts: scanned when the job completes"
            self.lines = lines + wrap(text).map { Line(text: $0, role: .dim) }
            return
        }
        lines += wrap("Restarts: " + advice.headline).map { Line(text: $0, role: advice.needsAction ? .status : .succeeded) }
        for reason in advice.rebootLines(sanitize: sanitize) {
            lines += wrap(reason).map { Line(text: $0, role: .reboot) }
        }
        for failed in advice.failedRestartLines(sanitize: sanitize) {
            lines += wrap(failed).map { Line(text: $0, role: .failed) }
        }
        let processes = advice.processes
        let pidWidth = processes.map { String($0.pid).count }.max() ?? 0
        let commandWidth = min(15, processes.map { DisplayWidth.of(sanitize($0.command)) }.max() ?? 0)
        let userWidth = min(12, processes.map { DisplayWidth.of(sanitize($0.user)) }.max() ?? 0)
        for group in advice.groups {
            lines.append(Line(text: "", role: .text))
            var owner = group.owner.restartedBy(sanitize: sanitize)
            if let service = group.owner.service, RestartJobPlan.isLeftOutUnlessNamed(service) { owner += " (left out unless named)" }
            lines.append(Line(text: owner, role: .title))
            for process in group.processes {
                let pid = String(repeating: " ", count: pidWidth - String(process.pid).count) + String(process.pid)
                let head = "  " + pid + "  " + TextTruncation.fit(sanitize(process.command), toWidth: commandWidth, ellipsis: glyphs.box.ellipsis)
                    + "  " + TextTruncation.fit(sanitize(process.user), toWidth: userWidth, ellipsis: glyphs.box.ellipsis) + "  "
                let paths = process.files.map { sanitize($0.path) }
                let room = width - DisplayWidth.of(head)
                if room >= Self.minimumFilesWidth {
                    lines.append(Line(text: head + Self.files(paths, width: room, ellipsis: glyphs.box.ellipsis), role: .text))
                } else {
                    lines.append(Line(text: head, role: .text))
                    lines.append(Line(text: "    " + Self.files(paths, width: width - 4, ellipsis: glyphs.box.ellipsis), role: .dim))
                }
            }
        }
        if !advice.otherRoots.isEmpty {
            let count = advice.otherRoots.count
            lines.append(Line(text: "", role: .text))
            lines += wrap("In another root, left out (restart \(count == 1 ? "it" : "them") there): \(count) \(count == 1 ? "process runs" : "processes run") code its root deleted or replaced")
                .map { Line(text: $0, role: .dim) }
            for process in advice.otherRoots {
                let head = "  \(process.pid) \(sanitize(process.command)) in \(sanitize(process.root ?? "/"))  "
                let room = width - DisplayWidth.of(head)
                let paths = process.files.map { sanitize($0.path) }
                if room >= Self.minimumFilesWidth {
                    lines.append(Line(text: head + Self.files(paths, width: room, ellipsis: glyphs.box.ellipsis), role: .text))
                } else {
                    lines += wrap(head).map { Line(text: $0, role: .text) }
                    lines.append(Line(text: "    " + Self.files(paths, width: width - 4, ellipsis: glyphs.box.ellipsis), role: .dim))
                }
            }
        }
        if !advice.unreadable.isEmpty {
            let count = advice.unreadable.count
            lines.append(Line(text: "", role: .text))
            lines += wrap("Could not read \(count) \(count == 1 ? "process" : "processes") (they may run old code too):")
                .map { Line(text: $0, role: .warning) }
            for process in advice.unreadable {
                lines.append(Line(text: "  \(process.pid) \(sanitize(process.command)) (\(process.reason))", role: .text))
            }
        }
        self.lines = lines
    }

    /// `failed · 2/4 updates done · 1 failed · 1 aborted · 2 lines dropped`: the result people
    /// read for the job (`JobState.shownResultCode`, as its row in the jobs pane), its counts,
    /// and once it has completed what it ignored or never received (`ignoredLinesText`).
    static func headline(job: JobState, counts: JobCounts, separator: String) -> Line {
        let code: OperationResultCode = job.shownResultCode ?? (job.phase == .queued ? .notStarted : .inProgress)
        var parts = [code.word, "\(counts.text) updates done"]
        if counts.failed > 0 { parts.append("\(counts.failed) failed") }
        if counts.aborted > 0 { parts.append("\(counts.aborted) aborted") }
        if let ignored = job.result?.ignoredLinesText { parts.append(ignored) }
        return Line(text: parts.joined(separator: separator), role: MonitorRenderer.role(for: code))
    }

    /// `paths` in `width` columns, as `PathListFitting.fit` fits them.
    static func files(_ paths: [String], width: Int, ellipsis: Character) -> String {
        PathListFitting.fit(paths, toWidth: width, ellipsis: ellipsis)
    }

    /// The detail of job `job` on the monitor in `state`, for its overlay's inner width.
    init?(job: Int, state: MonitorState) {
        guard let job = state.queue.job(job) else { return nil }
        self.init(job: job, counts: state.counts(of: job), width: max(1, state.layout.body.width - 2), glyphs: state.glyphs)
    }

    /// The furthest the lines scroll with `page` of them visible: the last at the bottom.
    func maximumScroll(page: Int) -> Int { max(0, lines.count - page) }
}
