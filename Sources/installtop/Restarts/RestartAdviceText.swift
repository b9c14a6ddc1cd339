import Foundation
import InstallEngine
import RestartScan
import TerminalUI

/// The text of a restart scan (rule 32) for `installtop restarts`, `--plain`'s summary and
/// `status`: a headline, the reboot reasons, then a table of the processes, grouped by service,
/// session, container and bare process. Process names and paths are sanitized: they are
/// whatever the processes' owners made them.
enum RestartAdviceText {
    /// The restart advice after a run (rule 32): the newest scan of the jobs that carry one,
    /// under a "Restarts" heading; `nil` when none has one or nothing needs a restart or reboot.
    static func summary(of jobs: [JobState], sanitizer: TextSanitizer) -> String? {
        let newest = jobs.filter { $0.result?.restartAdvice != nil }.max { ($0.completedAt ?? .distantPast) < ($1.completedAt ?? .distantPast) }
        guard let advice = newest?.result?.restartAdvice, advice.needsAction else { return nil }
        return "\nRestarts\n" + report(advice, sanitizer: sanitizer)
    }

    /// The whole report, newline-terminated.
    static func report(_ advice: RestartAdvice, sanitizer: TextSanitizer) -> String {
        var text = advice.headline + "\n"
        for line in advice.rebootLines(sanitize: { sanitizer.sanitize($0) }) { text += line + "\n" }
        if !advice.processes.isEmpty {
            var rows: [[String]] = [["PID", "COMMAND", "USER", "RESTARTED BY", "FILES"]]
            for group in advice.groups {
                for process in group.processes {
                    let files = process.files.map { sanitizer.sanitize($0.path) + " (\($0.change.rawValue))" }
                    rows.append([
                        String(process.pid), sanitizer.sanitize(process.command), sanitizer.sanitize(process.user),
                        group.owner.restartedBy { sanitizer.sanitize($0) }, files.joined(separator: ", "),
                    ])
                }
            }
            text += "\n" + TextTable.render(rows)
        }
        if !advice.unreadable.isEmpty {
            let list = advice.unreadable.map { "\($0.pid) \(sanitizer.sanitize($0.command)) (\($0.reason))" }
            text += "\nCould not read \(advice.unreadable.count) \(advice.unreadable.count == 1 ? "process" : "processes"): \(list.joined(separator: ", "))\n"
        }
        return text
    }
}
