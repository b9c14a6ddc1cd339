import Foundation

/// One update's row of the table a run prints at the end: `UPDATE  RESULT  EXIT  TIME  REBOOT
/// TITLE` (EXIT and REBOOT only where some row has one), its cells found where the header's columns start (results hold spaces), its job from
/// the `job N NAME` line above it and its reason from the indented lines below it; or its place in
/// a line that stands for several updates that never ran (`3 not started: the job was aborted`,
/// their names on indented lines below it).
struct SummaryRow: CustomStringConvertible {
    /// The job's name.
    let job: String
    let update: String
    let result: String
    /// The EXIT column (the unmapped result code; `-` for an update that never ran).
    let exit: String
    /// The lines under the row, unindented and joined by spaces; a group's outcome
    /// (`not started: the job was aborted`).
    let reason: String
    /// The whole line (without its reason).
    let line: String

    var description: String { line }
}

extension RunResult {
    /// The summary row of update `id` (shown whole or cut), or `nil` when stdout has no summary
    /// or no such row.
    func summaryRow(of id: String) -> SummaryRow? {
        guard let summary = stdout.range(of: "\nSummary\n") else { return nil }
        let lines = stdout[summary.upperBound...].split(separator: "\n").map { Array(String($0)) }
        guard let header = lines.first, String(header).hasPrefix("UPDATE") else { return nil }
        // EXIT and REBOOT are left out where no row has one.
        let headerText = String(header)
        let names = ["UPDATE", "RESULT", "EXIT", "TIME", "REBOOT", "TITLE"].filter { headerText.contains($0) }
        let starts = names.compactMap { name in headerText.range(of: name).map { headerText.distance(from: headerText.startIndex, to: $0.lowerBound) } }
        var job = ""
        for (index, line) in lines.enumerated().dropFirst() where line.first != " " {
            let text = String(line)
            let below = lines[(index + 1)...].prefix { $0.first == " " }.map { String($0).trimmingCharacters(in: .whitespaces) }
            if let heading = text.wholeMatch(of: /job \d+ (.*)/) {
                job = String(heading.1) + (below.isEmpty ? "" : " " + below.joined(separator: " "))
                continue
            }
            let members = below.joined(separator: " ").split(separator: ", ").map { $0.trimmingCharacters(in: .whitespaces) }
            if let group = text.wholeMatch(of: /(\d+) ([^ \d].*)/), members.count == Int(group.1) {
                guard members.contains(id) else { continue }
                let outcome = String(group.2)
                let result = outcome.hasPrefix("not started") ? "not started" : String(outcome.prefix { $0 != ":" })
                return SummaryRow(job: job, update: id, result: result, exit: "-", reason: outcome, line: text)
            }
            func cell(_ name: String) -> String? {
                guard let column = names.firstIndex(of: name) else { return nil }
                let end = column + 1 < starts.count ? min(starts[column + 1], line.count) : line.count
                guard starts[column] < end else { return "" }
                return String(line[starts[column]..<end]).trimmingCharacters(in: .whitespaces)
            }
            // A narrow width cuts the id: "nginx-li…".
            let shown = cell("UPDATE") ?? ""
            guard shown == id || (shown.hasSuffix("…") && id.hasPrefix(shown.dropLast())) else { continue }
            return SummaryRow(job: job, update: shown, result: cell("RESULT") ?? "", exit: cell("EXIT") ?? "-",
                              reason: below.joined(separator: " "), line: text)
        }
        return nil
    }

    /// The summary from its table on, each line that went on indented (a reason, a wrapped
    /// line) joined to the one before it by a space.
    var summaryText: String {
        guard let summary = stdout.range(of: "\nSummary\n") else { return "" }
        return stdout[summary.upperBound...].split(separator: "\n").reduce(into: "") { text, line in
            if line.hasPrefix(" ") {
                text += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                text += (text.isEmpty ? "" : "\n") + line
            }
        }
    }

    /// The summary's last line: `exit N: why`.
    var summaryExplanation: String? {
        stdoutLines.last { $0.hasPrefix("exit ") }
    }
}
