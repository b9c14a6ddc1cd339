import TerminalUI

/// What `installtop enroll` shows on a terminal while it works: a line per host, redrawn in
/// place, with a bar of its steps (`EnrollStep`, the package, the engine, the hooks and the
/// board's link), how many are done and what runs now:
///
///     h1  ██████░░░░░░  2/4  engine: systemctl enable --now installtop.service
///     h2  ████████████  4/4  enrolled
///     h3  ░░░░░░░░░░░░  0/4  waiting (2 at a time)
///
/// A value: `lines(width:)` is what the block shows, `redraw` the bytes that replace the block
/// drawn before. Off a terminal `enroll` prints a line per step instead.
struct EnrollProgress {
    struct Row {
        var host: String
        var done = 0
        var text: String
        /// The host's end: `enrolled`, `already enrolled`, `failed at engine`, `unreachable`.
        var ended: String?
        var failed = false
    }

    static let barWidth = 12
    private(set) var rows: [Row]
    /// Lines of the block on screen (0 before the first draw).
    private(set) var drawn = 0
    private let glyphs: (done: String, todo: String, ellipsis: Character)

    /// - Parameter hosts: the names shown, sanitized, in the order the hosts are taken.
    init(hosts: [String], parallel: Int, unicode: Bool) {
        rows = hosts.map { Row(host: $0, text: "waiting (\(parallel) at a time)") }
        glyphs = unicode ? ("█", "░", "…") : ("#", "-", "~")
    }

    /// Host `index` reports `text` of `step` in `state`.
    mutating func report(_ index: Int, step: EnrollStep, state: EnrollStepState, text: String) {
        guard rows.indices.contains(index) else { return }
        let position = EnrollStep.allCases.firstIndex(of: step) ?? 0
        switch state {
        case .begin:
            rows[index].done = position
            rows[index].text = "\(step.rawValue): \(text)"
        case .done, .already:
            rows[index].done = position + 1
            rows[index].text = "\(step.rawValue): \(state == .already ? "already: " : "")\(text)"
        case .failed:
            rows[index].done = position
            rows[index].text = "\(step.rawValue): failed: \(text)"
            rows[index].failed = true
        }
    }

    /// Host `index` has ended as `outcome` says.
    mutating func end(_ index: Int, _ outcome: EnrollOutcome) {
        guard rows.indices.contains(index) else { return }
        switch outcome {
        case .enrolled(let changed):
            rows[index].done = EnrollStep.allCases.count
            rows[index].ended = changed.isEmpty ? "already enrolled" : "enrolled"
        case .failed(let step, _, _, _):
            rows[index].ended = "failed at \(step.rawValue)"
            rows[index].failed = true
        case .unreachable:
            rows[index].ended = "unreachable"
            rows[index].failed = true
        }
    }

    /// The block's lines, each cut to `width` columns (a line that wraps would break the redraw).
    func lines(width: Int) -> [String] {
        let nameWidth = min(24, rows.map { DisplayWidth.of($0.host) }.max() ?? 0)
        let total = EnrollStep.allCases.count
        return rows.map { row in
            let filled = Self.barWidth * row.done / total
            let bar = String(repeating: glyphs.done, count: filled) + String(repeating: glyphs.todo, count: Self.barWidth - filled)
            let name = TextTruncation.fit(row.host, toWidth: nameWidth, ellipsis: glyphs.ellipsis)
            let line = "\(name)  \(bar)  \(row.done)/\(total)  \(row.ended ?? row.text)"
            return TextTruncation.truncate(line, toWidth: max(1, width - 1), ellipsis: glyphs.ellipsis)
        }
    }

    /// The bytes that draw the block afresh over the one drawn before: up to its first line,
    /// then each line cleared and written.
    mutating func redraw(width: Int) -> String {
        var text = drawn > 0 ? "\u{1B}[\(drawn)A" : ""
        let lines = lines(width: width)
        for line in lines { text += "\r\u{1B}[2K" + line + "\n" }
        drawn = lines.count
        return text
    }
}
