import InstallEngine
import TerminalUI

/// The results table printed when a run is over (after `--plain`'s lines, and on the normal
/// screen when the monitor closes): each job's name once, on a line of its own (`job 1 apt
/// install nginx-light cowsay …`), then one row per update with its result, exit code (`-` for
/// one that never ran or had no process of its own; no column when no update had one), time,
/// whether it asked for a reboot (no column when none did) and title (without the update's id
/// it may start with), and its reason whole on indented lines below it. Updates of a job that never ran and share their result and reason
/// are one line when there are `groupedFrom` or more (`27 not started: the job was aborted`),
/// their names wrapped below it. Then the counts, and a last line that says why the exit status
/// is what it is. HRESULTs stay in JSON and the history: here a reason needs the room.
enum RunSummary {
    /// How many updates that never ran with the same outcome are one line rather than a row each.
    static let groupedFrom = 3

    /// The summary of `jobs` ending with `status`; rows fit `width` (the update's name and the
    /// title are cut to fit, the wider first), job names, reasons and grouped names wrap within it.
    static func text(of jobs: [JobState], status: ExitStatus, sanitizer: TextSanitizer, width: Int?) -> String {
        var rows: [[String]] = [["UPDATE", "RESULT", "EXIT", "TIME", "REBOOT", "TITLE"]]
        var reasons = [""]
        var lines: [Int: [String]] = [:]
        let indent = String(repeating: " ", count: TextTable.noteIndent)
        for job in jobs {
            lines[rows.count, default: []] += wrapped("job \(job.id) \(sanitizer.sanitize(job.descriptor.name))", width: width, indent: indent)
            let groups = neverRunGroups(of: job)
            for (index, update) in job.updates.enumerated() {
                if let group = groups.first(where: { $0.members.contains(index) }) {
                    guard group.members.first == index else { continue }
                    let names = group.members.map { sanitizer.sanitize(job.updates[$0].update.id) }
                    lines[rows.count, default: []] += wrapped(sanitizer.sanitize(group.line), width: width, indent: indent)
                    lines[rows.count, default: []] += TextWrapping.wrap(names.enumerated().map { $0 < names.count - 1 ? $1 + "," : $1 },
                                                                        width: (width ?? Int.max) - indent.count).map { indent + $0 }
                    continue
                }
                let result = update.result
                let ran = update.startedAt != nil || result.startedAt != nil
                // A driver's updates (apt's packages, Ansible's tasks) have no process of their own.
                let hasExit = ran && result.resultCode.isFinal && !job.descriptor.runByDriver
                rows.append([
                    sanitizer.sanitize(update.update.id), word(for: result),
                    hasExit ? String(result.unmappedResultCode) : "-", result.duration?.shortText ?? "-",
                    result.rebootRequired ? "yes" : "", sanitizer.sanitize(titleAfterID(of: update.update)),
                ])
                reasons.append(sanitizer.sanitize(reason(for: result, ran: ran)))
            }
        }
        // EXIT where no update had an exit of its own (apt's packages, Ansible's tasks) and REBOOT
        // where none asked for one say nothing: their room goes to the titles' versions.
        let empty = [(column: 2, blank: "-"), (column: 4, blank: "")].filter { column, blank in
            rows.dropFirst().allSatisfy { $0[column] == blank }
        }.map(\.column)
        rows = rows.map { row in row.enumerated().filter { !empty.contains($0.offset) }.map(\.element) }
        let table = "\nSummary\n" + TextTable.render(rows, width: width, shrinking: [0], notes: reasons, lines: lines)
        let codes = jobs.flatMap { $0.updates.map(\.result.resultCode) }
        let reboot = jobs.contains { $0.result?.rebootRequired == true }
        var tail = "\(counted(jobs.count, "job")), \(counted(codes.count, "update")): \(counts(codes))"
        tail += reboot ? " · a reboot is required" : ""
        // A driver's last word on the whole job (a repair after the last package) stays said.
        for job in jobs {
            if let message = job.jobMessage { tail += "\njob \(job.id) \(sanitizer.sanitize(job.descriptor.name)): \(sanitizer.sanitize(message))" }
        }
        tail += "\n" + explanation(of: status, jobs: jobs)
        guard width != nil else { return table + tail }
        // Long lines go on, indented, on lines of their own: none is cut.
        return table + tail.split(separator: "\n", omittingEmptySubsequences: false)
            .map { wrapped(String($0), width: width, indent: indent).joined(separator: "\n") }.joined(separator: "\n")
    }

    /// The update's title without the id it starts with, which its row shows already:
    /// `3.03+dfsg2-8 → 3.03+dfsg2-8.1` for apt's `cowsay 3.03+dfsg2-8 → 3.03+dfsg2-8.1`.
    private static func titleAfterID(of update: Update) -> String {
        let prefix = update.id + " "
        guard update.title.hasPrefix(prefix), update.title.count > prefix.count else { return update.title }
        return String(update.title.dropFirst(prefix.count))
    }

    /// `line` on lines of `width` columns, the ones after the first indented; as it is without a width.
    private static func wrapped(_ line: String, width: Int?, indent: String) -> [String] {
        guard let width else { return [line] }
        let lines = TextWrapping.wrap(line, width: width)
        return [lines[0]] + TextWrapping.wrap(lines.dropFirst().joined(separator: " "), width: width - indent.count)
            .filter { !$0.isEmpty }.map { indent + $0 }
    }

    /// Updates of `job` that never ran, by outcome (their word and reason), where `groupedFrom`
    /// or more share one: the indices of the members, in order, and the line that stands for
    /// them, `27 not started: the job was aborted`.
    private static func neverRunGroups(of job: JobState) -> [(members: [Int], line: String)] {
        var order: [String] = []
        var members: [String: [Int]] = [:]
        for (index, update) in job.updates.enumerated() {
            let result = update.result
            guard update.startedAt == nil, result.startedAt == nil, result.resultCode != .succeeded, result.mark == nil else { continue }
            let reason = reason(for: result, ran: false)
            let outcome = reason.hasPrefix("not started") ? reason : "\(word(for: result)): \(reason)"
            if members[outcome] == nil { order.append(outcome) }
            members[outcome, default: []].append(index)
        }
        return order.compactMap { outcome in
            guard let indices = members[outcome], indices.count >= groupedFrom else { return nil }
            return (indices, "\(indices.count) \(outcome)")
        }
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
            // Failures Ansible's meta clear_host_errors took back: its exit status does not count them.
            let cleared = jobs.contains { $0.updates.contains { $0.result.mark == .cleared } }
                ? "; failures meta: clear_host_errors took back do not count, as in Ansible's exit status" : ""
            why = "every update succeeded" + unreached + cleared
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
            // Each broken update's reason, printed whole under its row, names the command that
            // repairs it: said once. dpkg consistent with apt's dependencies unmet (a graceful
            // stop between an exact-version pair) is not "dpkg was left broken".
            let broken = jobs.flatMap { $0.updates.filter { $0.result.hResult == .systemLeftBroken } }
            let unmetOnly = !broken.isEmpty && broken.allSatisfy { ($0.result.reason ?? "").contains("(dpkg is consistent)") }
            let names = broken.map(\.update.id).joined(separator: ", ")
            why = (unmetOnly ? "apt's dependencies were left unmet, dpkg is consistent" : "dpkg was left broken")
                + (names.isEmpty ? "" : " (the reason of \(names) above names the command that repairs it)")
        case .incomplete:
            // Only `restarts` exits so, and it runs no job; said whole for a summary all the same.
            why = "the restart scan could not read every process"
        case .reverted:
            // Only a commit-confirmed job's wait exits so, after its job's summary.
            why = "the job's run was reverted: it was not confirmed in time, or a check regressed"
        }
        return "exit \(status.rawValue): \(why)" + lateAborts(jobs)
    }

    /// `; job 1's abort came after its last update began: nothing was left to stop` for each job
    /// asked to abort that stopped nothing (rule 16: its results are what happened).
    private static func lateAborts(_ jobs: [JobState]) -> String {
        let late = jobs.filter { job in
            job.abortRequested && job.result.map { $0.resultCode != .aborted } == true
        }
        guard !late.isEmpty else { return "" }
        let names = late.map { "job \($0.id)" }.joined(separator: ", ")
        let verb = late.count == 1 ? "came" : "each came"
        return "; the abort of \(names) \(verb) after the last update began: nothing was left to stop"
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
