import Foundation
import InstallEngine

/// The history as an aligned text table for a terminal, in the order given:
/// date (UTC), result, update id, title, job, duration.
///
/// Titles, ids and job names come from manifests and may hold anything: control and
/// bidirectional-override characters are replaced so they cannot move the cursor or reorder
/// the line, and long values are cut with "…". Widths are counted in characters, so wide
/// (East Asian) characters can misalign a row but never break it.
public enum HistoryTable {
    /// Header plus one line per entry, each ending in "\n"; an empty string for no entries.
    public static func render(_ entries: [HistoryEntry]) -> String {
        guard !entries.isEmpty else { return "" }
        let header = ["DATE (UTC)", "RESULT", "UPDATE", "TITLE", "JOB", "DURATION"]
        let rows = entries.map { entry in
            [
                entry.startedAt.map(date) ?? entry.endedAt.map(date) ?? "-",
                result(entry),
                cell(entry.updateID, limit: 32),
                cell(entry.title, limit: 48),
                cell(entry.jobName, limit: 32),
                entry.duration.map(duration) ?? "-",
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        return ([header] + rows).map { row in
            let padded = row.indices.map { column in
                let cell = row[column]
                return column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            return padded.joined(separator: "  ") + "\n"
        }.joined()
    }

    // MARK: - Cells

    /// `2024-05-01 12:00:00`
    static func date(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeSeparator: .colon, timeZone: .gmt)
                .year().month().day().time(includingFractionalSeconds: false))
    }

    /// The result's name, with the reason of a failure in parentheses; "running" while running.
    static func result(_ entry: HistoryEntry) -> String {
        if entry.isRunning { return "running" }
        guard let reason = entry.reason, !reason.isEmpty, entry.resultCode != .succeeded else {
            return entry.resultCode.name
        }
        return "\(entry.resultCode.name) (\(cell(reason, limit: 40)))"
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
