#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import TextBasics

/// The history as an aligned text table for a terminal `width` columns wide, in the order
/// given: date (UTC), result, duration, update id, a package's versions when there are any,
/// then, as the width allows, job and title, and last the reason of a result that has one (a
/// failure's, and a success's too: `from dpkg's state: …`, `the job stopped after it, as asked`),
/// as `--json` gives it. Nothing nests: the result is a word and the reason a column of its own.
///
/// Every line fits the width, and the update's name and a package's versions (`old → new`) are
/// what it keeps whole first: when the reason would get fewer than 16 columns it goes whole on
/// indented lines below its row; then the date loses its year; then a version that does not fit
/// goes on at `→`, the new one on the next line under the old; only then is the name cut. Other
/// long cells are cut with "…". Titles, ids, job names and reasons come from manifests and
/// children and may hold anything: control and bidirectional-override characters are replaced
/// so they cannot move the cursor or reorder the line. Widths are counted in characters, so
/// wide (East Asian) characters can misalign a row but never break it.
public enum HistoryTable {
    /// The fewest columns the reason gets beside the row; with fewer it goes below it.
    static let minimumReasonWidth = 16
    /// How far a reason below its row is indented.
    static let reasonIndent = 4

    /// Header plus one line per entry (and the lines a long version or a reason below the row
    /// takes), each ending in "\n"; an empty string for no entries.
    /// - Parameter width: the terminal's columns (80 when it is not a terminal); at least 60 is used.
    public static func render(_ entries: [HistoryEntry], width: Int = 80) -> String {
        guard !entries.isEmpty else { return "" }
        let width = max(60, width)
        var columns: [Column] = [
            Column("DATE (UTC)", limit: width >= 100 ? 19 : 16) { entry in
                let text = entry.startedAt.map(date) ?? entry.endedAt.map(date) ?? "-"
                return String(text.prefix(width >= 100 ? 19 : 16))
            },
            Column("RESULT", limit: 11) { $0.isRunning ? "running" : $0.resultCode.word },
            Column("TIME", limit: 6) { $0.duration.map(duration) ?? "-" },
            Column("UPDATE", limit: 48) { $0.updateID },
        ]
        let dateColumn = 0, updateColumn = 3
        // Package updates: their versions (`3.0.14 → 3.0.15`), which is what `--update openssl`
        // is asked for; only when some entry has them, so other histories read as before.
        var version: Int?
        if entries.contains(where: { $0.oldVersion != nil || $0.newVersion != nil }) {
            version = columns.count
            columns.append(Column("VERSION", limit: 64) { entry in
                switch (entry.oldVersion, entry.newVersion) {
                case (let old?, let new?) where old != new: return "\(old) → \(new)"
                case (_, let new?): return new
                case (let old?, nil): return "\(old) removed"
                case (nil, nil): return ""
                }
            })
        }
        if width >= 110 { columns.append(Column("JOB", limit: 20) { $0.jobName }) }
        if width >= 140 { columns.append(Column("TITLE", limit: 36) { $0.title }) }
        let reasonColumn = Column("REASON", limit: Int.max) { entry in
            entry.isRunning ? "" : entry.reason ?? ""
        }
        var rows = entries.map { entry in (columns + [reasonColumn]).map { cell($0.value(entry), limit: Int.max) } }
        // Each column before the reason as wide as its widest cell, within its limit.
        var widths = columns.indices.map { index in
            min(columns[index].limit, ([columns[index].header] + rows.map { $0[index] }).map(\.count).max() ?? 0)
        }
        let separators = 2 * columns.count
        func overflow(reasonBeside: Bool) -> Int {
            widths.reduce(0, +) + separators + (reasonBeside ? minimumReasonWidth : -2) - width
        }
        let reasonBeside = overflow(reasonBeside: true) <= 0
        if !reasonBeside, overflow(reasonBeside: false) > 0 {
            // The date to the minute without its year: `11-14 23:13`.
            rows = rows.map { row in var row = row; row[dateColumn] = String(row[dateColumn].dropFirst(5)); return row }
            widths[dateColumn] = max(columns[dateColumn].header.count, widths[dateColumn] - 5)
        }
        var versionBreaks = false
        if !reasonBeside, let version, overflow(reasonBeside: false) > 0 {
            let halves = rows.map { versionHalves($0[version]) }
            let broken = max(columns[version].header.count, halves.flatMap { $0 }.map(\.count).max() ?? 0)
            if broken < widths[version] {
                widths[version] = max(broken, widths[version] - overflow(reasonBeside: false))
                versionBreaks = true
            }
        }
        if !reasonBeside, overflow(reasonBeside: false) > 0 { widths[updateColumn] = max(8, widths[updateColumn] - overflow(reasonBeside: false)) }
        let reasonWidth = max(6, width - widths.reduce(0, +) - separators)
        let header = (columns + (reasonBeside ? [reasonColumn] : [])).map(\.header)
        return ([header] + rows).enumerated().map { index, row in
            var line = ""
            var below: [String] = []
            for (column, text) in row.enumerated() {
                if column < widths.count {
                    var shown = text
                    if versionBreaks, column == version, index > 0, text.count > widths[column] {
                        let halves = versionHalves(text)
                        shown = halves[0]
                        let start = widths[..<column].reduce(0, +) + 2 * column
                        below += halves.dropFirst().map { String(repeating: " ", count: start) + fit($0, to: widths[column]) }
                    }
                    let fitted = fit(shown, to: widths[column])
                    line += fitted + String(repeating: " ", count: widths[column] - fitted.count) + "  "
                } else if reasonBeside || index == 0 {
                    line += fit(text, to: reasonWidth)
                } else if !text.isEmpty {
                    below += wrap(text, width: width - reasonIndent).map { String(repeating: " ", count: reasonIndent) + $0 }
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return ([line] + below).map { $0 + "\n" }.joined()
        }.joined()
    }

    /// A version cell broken at its arrow: `["3.0.14 →", "3.0.15"]`; whole when it has none.
    private static func versionHalves(_ text: String) -> [String] {
        let parts = text.split(separator: " → ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return [text] }
        return [String(parts[0]) + " →", String(parts[1])]
    }

    /// `text` on lines of at most `width` characters, broken at spaces; a word longer than a
    /// line is broken where the line ends.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            if !line.isEmpty, line.count + 1 + word.count <= width {
                line += " " + word
                continue
            }
            if !line.isEmpty { lines.append(line) }
            while word.count > width {
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            line = String(word)
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// One column before the reason: its header, its widest allowed width and its cell.
    private struct Column {
        let header: String
        let limit: Int
        let value: (HistoryEntry) -> String

        init(_ header: String, limit: Int, value: @escaping (HistoryEntry) -> String) {
            self.header = header
            self.limit = limit
            self.value = value
        }
    }

    /// `text` cut to `width` characters, ending in "…" when cut; brackets the cut left open
    /// are closed after it ("killed (by signal…)"), so a cut never reads as unbalanced.
    static func fit(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        var keep = width - 1
        while keep > 0 {
            let kept = text.prefix(keep)
            let open = max(0, kept.count { $0 == "(" } - kept.count { $0 == ")" })
            if keep + 1 + open <= width { return kept + "…" + String(repeating: ")", count: open) }
            keep -= 1
        }
        return "…"
    }

    // MARK: - Cells

    /// `2024-05-01 12:00:00`
    static func date(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeSeparator: .colon, timeZone: .gmt)
                .year().month().day().time(includingFractionalSeconds: false))
    }

    /// `850ms`, `12.3s`, `3m04s`, `1h02m`
    static func duration(_ duration: Duration) -> String {
        let ms = duration.wholeMilliseconds
        switch ms {
        case ..<1000: return "\(ms)ms"
        case ..<60_000: return CFormat.string("%.1fs", Double(ms) / 1000)
        case ..<3_600_000: return CFormat.string("%lldm%02llds", ms / 60_000, ms / 1000 % 60)
        default: return CFormat.string("%lldh%02lldm", ms / 3_600_000, ms / 60_000 % 60)
        }
    }

    /// `text` made safe for one terminal line and cut to `limit` characters.
    static func cell(_ text: String, limit: Int) -> String {
        var safe = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                safe.append(" ")
            } else if scalar.properties.generalCategory == .control || isBidiControl(scalar) {
                safe.append("\u{FFFD}")
            } else {
                safe.append(scalar)
            }
        }
        let clean = String(safe)
        return clean.count > limit ? String(clean.prefix(limit - 1)) + "…" : clean
    }

    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
