import Foundation

/// One row of the table a run prints at the end:
/// `JOB  UPDATE  RESULT  EXIT  TIME  REBOOT  TITLE`, its cells found where the header's columns
/// start (job names and results hold spaces), and its reason from the indented lines below it.
struct SummaryRow: CustomStringConvertible {
    /// The job's name.
    let job: String
    let update: String
    let result: String
    /// The EXIT column (the unmapped result code; `-` for an update that never ran).
    let exit: String
    /// The lines under the row, unindented and joined by spaces.
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
        guard let header = lines.first, String(header).hasPrefix("JOB") else { return nil }
        let names = ["JOB", "UPDATE", "RESULT", "EXIT", "TIME", "REBOOT", "TITLE"]
        let headerText = String(header)
        let starts = names.compactMap { name in headerText.range(of: name).map { headerText.distance(from: headerText.startIndex, to: $0.lowerBound) } }
        guard starts.count == names.count else { return nil }
        for (index, line) in lines.enumerated().dropFirst() where line.first != " " {
            func cell(_ column: Int) -> String {
                let end = column + 1 < starts.count ? min(starts[column + 1], line.count) : line.count
                guard starts[column] < end else { return "" }
                return String(line[starts[column]..<end]).trimmingCharacters(in: .whitespaces)
            }
            // A narrow width cuts the id: "nginx-li…".
            let shown = cell(1)
            guard shown == id || (shown.hasSuffix("…") && id.hasPrefix(shown.dropLast())) else { continue }
            let reason = lines[(index + 1)...].prefix { $0.first == " " }
                .map { String($0).trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            return SummaryRow(job: cell(0), update: cell(1), result: cell(2), exit: cell(3), reason: reason, line: String(line))
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
