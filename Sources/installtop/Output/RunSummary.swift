import InstallEngine
import TerminalUI

/// The results table printed when a run is over (after `--plain`'s lines, and on the normal
/// screen when the monitor closes): one row per update with its job's name, result, exit code
/// (`-` for one that never ran or had no process of its own), time and title, and its reason
/// whole on indented lines below it; then the counts, and a last line that says why the exit
/// status is what it is. HRESULTs stay in JSON and the history: here a reason needs the room.
enum RunSummary {
    /// The summary of `jobs` ending with `status`; rows fit `width` (the job's and update's
    /// names and the title are cut to fit, the widest first), reasons wrap within it.
    static func text(of jobs: [JobState], status: ExitStatus, sanitizer: TextSanitizer, width: Int?) -> String {
        var rows: [[String]] = [["JOB", "UPDATE", "RESULT", "EXIT", "TIME", "REBOOT", "TITLE"]]
        var reasons = [""]
        for job in jobs {
            for update in job.updates {
                let result = update.result
                let ran = update.startedAt != nil || result.startedAt != nil
                // A driver's updates (apt's packages, Ansible's tasks) have no process of their own.
                let hasExit = ran && result.resultCode.isFinal && !job.descriptor.runByDriver
                rows.append([
                    sanitizer.sanitize(job.descriptor.name), sanitizer.sanitize(update.update.id), word(for: result),
                    hasExit ? String(result.unmappedResultCode) : "-", result.duration?.shortText ?? "-",
                    result.rebootRequired ? "yes" : "", sanitizer.sanitize(update.update.title),
                ])
                reasons.append(sanitizer.sanitize(reason(for: result, ran: ran)))
            }
        }
        let table = "\nSummary\n" + TextTable.render(rows, width: width, shrinking: [0, 1], notes: reasons)
        let codes = jobs.flatMap { $0.updates.map(\.result.resultCode) }
        let reboot = jobs.contains { $0.result?.rebootRequired == true }
        var tail = "\(counted(jobs.count, "job")), \(counted(codes.count, "update")): \(counts(codes))"
        tail += reboot ? " · a reboot is required" : ""
        // A driver's last word on the whole job (a repair after the last package) stays said.
        for job in jobs {
            if let message = job.jobMessage { tail += "\njob \(job.id) \(sanitizer.sanitize(job.descriptor.name)): \(sanitizer.sanitize(message))" }
        }
        tail += "\n" + explanation(of: status, jobs: jobs)
        guard let width else { return table + tail }
        // Long lines go on, indented, on lines of their own: none is cut.
        let indent = String(repeating: " ", count: TextTable.noteIndent)
        return table + tail.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let wrapped = TextWrapping.wrap(String(line), width: width)
            return ([wrapped[0]] + TextWrapping.wrap(wrapped.dropFirst().joined(separator: " "), width: width - indent.count)
                .filter { !$0.isEmpty }.map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The result's word, as the monitor shows it: `with errors`, a marked step's own word
    /// (`skipped`, `rescued`, `ignored` …, though it counts as succeeded), `not started` for one
    /// the run never reached.
    static func word(for result: UpdateInstallationResult) -> String {
        if let mark = result.mark { return mark.word }
        return result.resultCode == .notStarted ? "not started" : result.resultCode.word
    }

    /// `1 succeeded, 2 failed, 1 aborted`, in that order, leaving out what is 0.
    static func counts(_ codes: [OperationResultCode]) -> String {
        let order: [OperationResultCode] = [.succeeded, .succeededWithErrors, .failed, .aborted, .inProgress, .notStarted]
        return order.compactMap { code in
            let count = codes.count { $0 == code }
            return count == 0 ? nil : "\(count) \(code == .notStarted ? "not started" : code.word)"
        }.joined(separator: ", ")
    }

    /// The failure reason, the first reported error of one that succeeded with errors, or
    /// `not reached` for an update that never ran.
    private static func reason(for result: UpdateInstallationResult, ran: Bool) -> String {
        if let reason = result.reason, !reason.isEmpty { return reason }
        if result.resultCode == .succeededWithErrors, let error = result.reportedErrors.first { return error }
        return ran || result.resultCode == .succeeded ? "" : "not reached"
    }

    /// `exit 3: aborted (2 jobs)`: the status and what made it so, from the same results the
    /// status was taken from.
    static func explanation(of status: ExitStatus, jobs: [JobState]) -> String {
        let codes = jobs.flatMap { $0.updates.map(\.result.resultCode) }
        // Updates a driver never came to (a `serial` batch a play ended before) are no failure.
        let unreached = jobs.contains { $0.updates.contains { $0.result.mark == .notReached } } ? " or was never reached" : ""
        let why: String
        switch status {
        case .succeeded:
            why = "every update succeeded" + unreached
        case .failed:
            let failedJobs = jobs.count { $0.shownResultCode == .failed }
            let withErrors = codes.count { $0 == .succeededWithErrors }
            let failed = codes.count { $0 == .failed }
            var parts: [String] = []
            if failed > 0 { parts.append("\(counted(failed, "update")) failed" + (failedJobs > 0 ? " in \(counted(failedJobs, "job"))" : "")) }
            if withErrors > 0 { parts.append("\(counted(withErrors, "update")) succeeded with errors") }
            why = parts.isEmpty ? "not every job succeeded" : parts.joined(separator: ", ")
        case .invalidUsage:
            why = "invalid usage"
        case .aborted:
            let aborted = jobs.count { $0.result == nil || $0.result?.resultCode == .aborted }
            why = "aborted by the operator or a signal (\(counted(aborted, "job")))"
        case .rebootRequired:
            why = "every update succeeded\(unreached); a reboot is required"
        case .leftBroken:
            // Each broken update's reason ends in the command that repairs it.
            let broken = jobs.flatMap { $0.updates.filter { $0.result.hResult == .systemLeftBroken } }
            why = "dpkg was left broken\n" + broken.map { "\($0.update.id): \($0.result.reason ?? "the system was left broken")" }
                .joined(separator: "\n")
        }
        return "exit \(status.rawValue): \(why)"
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
