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

    /// One line: "2 services to restart (3 processes) · reboot required", or the all-clear.
    static func headline(_ advice: RestartAdvice) -> String {
        guard advice.needsAction else { return "Nothing runs deleted or replaced code; no reboot needed." }
        var parts: [String] = []
        if !advice.processes.isEmpty {
            let services = advice.services.count
            let processes = advice.processes.count
            parts.append("\(services) \(services == 1 ? "service" : "services") to restart (\(processes) \(processes == 1 ? "process runs" : "processes run") deleted or replaced code)")
        }
        if advice.rebootRequired { parts.append("reboot required") }
        return parts.joined(separator: " · ")
    }

    /// The reasons for a reboot, one line each: "reboot required: kernel 6.1.0-18-amd64 is
    /// installed, 6.1.0-9-amd64 runs".
    static func rebootLines(_ advice: RestartAdvice, sanitizer: TextSanitizer) -> [String] {
        advice.rebootReasons.map { reason in
            switch reason {
            case .newerKernel(let running, let installed):
                "reboot required: kernel \(sanitizer.sanitize(installed)) is installed, \(sanitizer.sanitize(running)) runs"
            case .rebootRequiredFile(let packages) where packages.isEmpty:
                "reboot required: /run/reboot-required"
            case .rebootRequiredFile(let packages):
                "reboot required: /run/reboot-required (\(packages.map { sanitizer.sanitize($0) }.joined(separator: ", ")))"
            }
        }
    }

    /// The whole report, newline-terminated.
    static func report(_ advice: RestartAdvice, sanitizer: TextSanitizer) -> String {
        var text = headline(advice) + "\n"
        for line in rebootLines(advice, sanitizer: sanitizer) { text += line + "\n" }
        if !advice.processes.isEmpty {
            var rows: [[String]] = [["PID", "COMMAND", "USER", "RESTARTED BY", "FILES"]]
            for group in advice.groups {
                for process in group.processes {
                    let files = process.files.map { sanitizer.sanitize($0.path) + " (\($0.change.rawValue))" }
                    rows.append([
                        String(process.pid), sanitizer.sanitize(process.command), sanitizer.sanitize(process.user),
                        restartedBy(group.owner, sanitizer: sanitizer), files.joined(separator: ", "),
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

    /// What restarts a process: its unit, or who else does ("session-4.scope (its user)");
    /// "nothing (never killed)" for a bare process.
    private static func restartedBy(_ owner: ProcessOwner, sanitizer: TextSanitizer) -> String {
        switch owner {
        case .service(let unit): sanitizer.sanitize(unit)
        case .session(let name): sanitizer.sanitize(name) + " (its user)"
        case .container(let name): "container " + sanitizer.sanitize(name)
        case .bare: "nothing (never killed)"
        }
    }
}
