/// One row of the table `--plain` prints at the end:
/// `JOB  UPDATE  RESULT  HRESULT  EXIT  TIME  REBOOT  TITLE`.
struct SummaryRow: CustomStringConvertible {
    let job: Int
    let update: String
    let result: String
    let hResult: String
    /// The EXIT column (unmapped result code).
    let exit: Int32
    /// The whole line.
    let line: String

    var description: String { line }
}

extension RunResult {
    /// The summary row of update `id`, or `nil` when stdout has no summary or no such row.
    func summaryRow(of id: String) -> SummaryRow? {
        guard let summary = stdout.range(of: "\nSummary\n") else { return nil }
        for line in stdout[summary.upperBound...].split(separator: "\n") {
            // The first five columns are never empty, so splitting on runs of spaces finds them.
            let cells = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard cells.count >= 5, cells[1] == id, let job = Int(cells[0]), let exit = Int32(cells[4]) else { continue }
            return SummaryRow(job: job, update: cells[1], result: cells[2], hResult: cells[3], exit: exit, line: String(line))
        }
        return nil
    }
}
