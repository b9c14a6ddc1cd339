import Foundation
import InstallEngine

/// The history as an aligned text table for a terminal `width` columns wide, in the order
/// given: date (UTC), result, duration, update id, a package's versions when there are any,
/// then, as the width allows, job and title,
/// and last the reason of a result that was not a plain success. Nothing nests: the result is a
/// word and the reason a column of its own.
///
/// Every line fits the width: the reason column takes what is left and long cells are cut with
/// "…". Titles, ids, job names and reasons come from manifests and children and may hold
/// anything: control and bidirectional-override characters are replaced so they cannot move the
/// cursor or reorder the line. Widths are counted in characters, so wide (East Asian)
/// characters can misalign a row but never break it.
public enum HistoryTable {
    /// Header plus one line per entry, each ending in "\n"; an empty string for no entries.
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
            Column("UPDATE", limit: 24) { $0.updateID },
        ]
        // Package updates: their versions (`3.0.14 → 3.0.15`), which is what `--update openssl`
        // is asked for; only when some entry has them, so other histories read as before.
        if entries.contains(where: { $0.oldVersion != nil || $0.newVersion != nil }) {
            columns.append(Column("VERSION", limit: 23) { entry in
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
            entry.isRunning || entry.resultCode == .succeeded ? "" : entry.reason ?? ""
        }
        let rows = entries.map { entry in (columns + [reasonColumn]).map { cell($0.value(entry), limit: Int.max) } }
        // Each fixed column as wide as its widest cell, within its limit.
        var widths = columns.indices.map { index in
            min(columns[index].limit, ([columns[index].header] + rows.map { $0[index] }).map(\.count).max() ?? 0)
        }
        let separators = 2 * columns.count
        // The reason keeps at least 16 columns: the update id gives them up first, down to 8.
        let update = 3
        let overflow = widths.reduce(0, +) + separators + 16 - width
        if overflow > 0 { widths[update] = max(8, widths[update] - overflow) }
        let reasonWidth = max(6, width - widths.reduce(0, +) - separators)
        return ([(columns + [reasonColumn]).map(\.header)] + rows).map { row in
            var line = ""
            for (index, text) in row.enumerated() {
                if index < widths.count {
                    let fitted = fit(text, to: widths[index])
                    line += fitted + String(repeating: " ", count: widths[index] - fitted.count) + "  "
                } else {
                    line += fit(text, to: reasonWidth)
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line + "\n"
        }.joined()
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
        let ms = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        switch ms {
        case ..<1000: return "\(ms)ms"
        case ..<60_000: return String(format: "%.1fs", Double(ms) / 1000)
        case ..<3_600_000: return String(format: "%dm%02ds", ms / 60_000, ms / 1000 % 60)
        default: return String(format: "%dh%02dm", ms / 3_600_000, ms / 60_000 % 60)
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
