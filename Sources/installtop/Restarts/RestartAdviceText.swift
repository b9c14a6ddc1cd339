#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import RestartScan
import TerminalUI

/// The text of a restart scan (rule 32) for `installtop restarts`, `--plain`'s summary and
/// `status`: a headline, the reboot reasons, then a table of the processes, grouped by service,
/// session, container and bare process, then one of the processes of other roots (left out of
/// this root's advice). Process names and paths are sanitized: they are whatever the
/// processes' owners made them.
enum RestartAdviceText {
    /// With fewer columns than this left for the files beside the other columns (or than the
    /// widest row's files take whole, when that is less), a table puts each row's files on a
    /// line of their own under it.
    static let preferredFilesWidth = 30

    /// The restart advice after a run (rule 32): the newest scan of the jobs that carry one,
    /// under a "Restarts" heading, fitted to `width` as `report` does; `nil` when none has one
    /// or nothing needs a restart or reboot.
    static func summary(of jobs: [JobState], sanitizer: TextSanitizer, width: Int?) -> String? {
        let newest = jobs.filter { $0.result?.restartAdvice != nil }.max { ($0.completedAt ?? .distantPast) < ($1.completedAt ?? .distantPast) }
        guard let advice = newest?.result?.restartAdvice, advice.needsAction else { return nil }
        return "\nRestarts\n" + report(advice, sanitizer: sanitizer, width: width)
    }

    /// The whole report, newline-terminated: the headline, the reboot reasons, the services
    /// whose restart failed, the tables. With a `width`, every line fits it (but a pid
    /// wider than it): sentences wrap; a table's files go beside the other columns when
    /// `preferredFilesWidth` columns are left for them, else on a line of their own under each
    /// row, with the other columns cut as `TextTable` cuts them (the restarter or root first);
    /// either way they are shown whole, else by file name, else as many names as fit and `+N`.
    static func report(_ advice: RestartAdvice, sanitizer: TextSanitizer, width: Int?) -> String {
        let sanitize = { (text: String) in sanitizer.sanitize(text) }
        var text = lines([advice.headline] + advice.rebootLines(sanitize: sanitize) + advice.failedRestartLines(sanitize: sanitize), width: width)
        if !advice.processes.isEmpty {
            var rows: [Row] = []
            for group in advice.groups {
                for process in group.processes {
                    rows.append(Row(process, sanitize: sanitize, fourth: group.owner.restartedBy(sanitize: sanitize)))
                }
            }
            text += "\n" + table(header: ["PID", "COMMAND", "USER", "RESTARTED BY", "FILES"], rows: rows, width: width)
        }
        if !advice.otherRoots.isEmpty {
            let count = advice.otherRoots.count
            text += "\n" + lines(["In another root, left out (\(count == 1 ? "it runs" : "they run") code \(count == 1 ? "its" : "their") own root deleted or replaced; restart \(count == 1 ? "it" : "them") there):"], width: width)
            let rows = advice.otherRoots.map { Row($0, sanitize: sanitize, fourth: sanitize($0.root ?? "/")) }
            text += table(header: ["PID", "COMMAND", "USER", "ROOT", "FILES"], rows: rows, width: width)
        }
        if !advice.unreadable.isEmpty {
            let list = advice.unreadable.map { "\($0.pid) \(sanitize($0.command)) (\($0.reason))" }
            text += "\n" + lines(["Could not read \(advice.unreadable.count) \(advice.unreadable.count == 1 ? "process" : "processes"): \(list.joined(separator: ", "))"], width: width)
        }
        return text
    }

    /// One process's cells before its files, and its files with their change.
    private struct Row {
        var cells: [String]
        var files: [String]

        init(_ process: StaleProcess, sanitize: (String) -> String, fourth: String) {
            cells = [String(process.pid), sanitize(process.command), sanitize(process.user), fourth]
            files = process.files.map { sanitize($0.path) + " (\($0.change.rawValue))" }
        }
    }

    private static func lines(_ sentences: [String], width: Int?) -> String {
        sentences.flatMap { sentence in width.map { TextWrapping.wrap([sentence], width: $0) } ?? [sentence] }
            .map { $0 + "\n" }.joined()
    }

    /// The rows under `header`, its last column the files, fitted to `width` as `report` says.
    private static func table(header: [String], rows: [Row], width: Int?) -> String {
        let whole = rows.map { $0.files.joined(separator: ", ") }
        guard let width else { return TextTable.render([header] + zip(rows, whole).map { $0.cells + [$1] }) }
        let ellipsis: Character = TextEnvironment.isUTF8() ? "…" : "~"
        let leading = Array(header.dropLast())
        let widths = leading.indices.map { column in ([leading[column]] + rows.map { $0.cells[column] }).map(DisplayWidth.of).max() ?? 0 }
        let room = width - widths.reduce(0, +) - 2 * leading.count
        if room >= min(whole.map(DisplayWidth.of).max() ?? 0, preferredFilesWidth) {
            return TextTable.render([header] + rows.map { $0.cells + [PathListFitting.fit($0.files, toWidth: room, ellipsis: ellipsis)] })
        }
        // Too narrow for the files beside the rest: each row's files on a line of their own under it.
        let notes = rows.map { PathListFitting.fit($0.files, toWidth: width - TextTable.noteIndent, ellipsis: ellipsis) }
        return TextTable.render([leading] + rows.map(\.cells), width: width, shrinking: Set(1..<leading.count - 1), notes: [""] + notes)
    }
}
