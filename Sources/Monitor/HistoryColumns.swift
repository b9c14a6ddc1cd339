#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TerminalUI

/// Where each column of the history view goes for an inner width: date, mark, result word,
/// duration, then update id, title and job sharing the rest (the title half of it). A zero
/// width means the column is not shown.
struct HistoryColumns: Sendable, Hashable {
    let width: Int

    /// The date, the result's mark and its word.
    var result: HistoryResultColumns { HistoryResultColumns(width: width) }
    var durationX: Int { result.endX }
    var duration: Int { 7 }
    /// Where the update id, title and job start, and how wide they are together.
    private var restX: Int { durationX + duration + 2 }
    private var rest: Int { max(0, width - restX) }
    /// Whether the id and the job are shown: not when the title would get under 30 columns.
    private var showsIDAndJob: Bool { rest >= 36 }
    var idX: Int { restX }
    var id: Int { showsIDAndJob ? rest / 5 : 0 }
    var titleX: Int { showsIDAndJob ? idX + id + 1 : restX }
    var title: Int { showsIDAndJob ? rest - id - job - 2 : rest }
    var jobX: Int { showsIDAndJob ? titleX + title + 1 : width }
    var job: Int { showsIDAndJob ? rest / 5 : 0 }

    /// The headings line.
    func drawHeadings(into buffer: inout Buffer, y: Int, x: Int, style: Style) {
        result.drawHeadings(into: &buffer, y: y, x: x, style: style)
        let headings = [(idX, id, "update"), (titleX, title, "title"), (jobX, job, "job")]
        for (column, width, text) in headings where width > 0 {
            buffer.write(text, x: x + column, y: y, style: style, maxWidth: width)
        }
        TextLine("took", style: style, alignment: .right).render(into: &buffer, area: Rect(x: x + durationX, y: y, width: duration, height: 1))
    }

    /// `2027-01-15 08:00` (or `01-15 08:00` without the year) in `timeZone`.
    static func dateText(_ date: Date, timeZone: TimeZone, withYear: Bool) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let two = TimeText.twoDigits
        let day = "\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
        return withYear ? "\(parts.year ?? 0)-" + day : day
    }
}
