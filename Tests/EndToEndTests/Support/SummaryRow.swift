import Foundation

/// One row of the table a run prints at the end:
/// `JOB  UPDATE  RESULT  EXIT  TIME  REBOOT  REASON  TITLE`, its cells found where the header's
/// columns start (job names, results and reasons hold spaces).
struct SummaryRow: CustomStringConvertible {
    /// The job's name.
    let job: String
    let update: String
    let result: String
    /// The EXIT column (the unmapped result code; `-` for an update that never ran).
    let exit: String
    let reason: String
    /// The whole line.
    let line: String

    var description: String { line }
}

extension RunResult {
    /// The summary row of update `id`, or `nil` when stdout has no summary or no such row.
    func summaryRow(of id: String) -> SummaryRow? {
        guard let summary = stdout.range(of: "\nSummary\n") else { return nil }
        let lines = stdout[summary.upperBound...].split(separator: "\n").map { Array(String($0)) }
        guard let header = lines.first, String(header).hasPrefix("JOB") else { return nil }
        let names = ["JOB", "UPDATE", "RESULT", "EXIT", "TIME", "REBOOT", "REASON", "TITLE"]
        let headerText = String(header)
        let starts = names.compactMap { name in headerText.range(of: name).map { headerText.distance(from: headerText.startIndex, to: $0.lowerBound) } }
        guard starts.count == names.count else { return nil }
        for line in lines.dropFirst() {
            func cell(_ column: Int) -> String {
                let end = column + 1 < starts.count ? min(starts[column + 1], line.count) : line.count
                guard starts[column] < end else { return "" }
                return String(line[starts[column]..<end]).trimmingCharacters(in: .whitespaces)
            }
            guard cell(1) == id else { continue }
            return SummaryRow(job: cell(0), update: cell(1), result: cell(2), exit: cell(3), reason: cell(6), line: String(line))
        }
        return nil
    }

    /// The summary's last line: `exit N: why`.
    var summaryExplanation: String? {
        stdoutLines.last { $0.hasPrefix("exit ") }
    }
}
