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
    let showsYear: Bool
    let date: Int
    let markX: Int
    let wordX: Int
    let word: Int
    let durationX: Int
    let duration: Int
    let idX: Int
    let id: Int
    let titleX: Int
    let title: Int
    let jobX: Int
    let job: Int

    init(width: Int) {
        showsYear = width >= 60
        date = showsYear ? 16 : 11
        markX = date + 1
        word = width >= 70 ? 11 : 0
        wordX = markX + 2
        durationX = wordX + word + (word > 0 ? 1 : 0)
        duration = 7
        let restX = durationX + duration + 2
        let rest = max(0, width - restX)
        if rest >= 36 {
            id = rest / 5
            job = rest / 5
            idX = restX
            titleX = idX + id + 1
            title = rest - id - job - 2
            jobX = titleX + title + 1
        } else {
            id = 0
            idX = restX
            job = 0
            jobX = width
            titleX = restX
            title = rest
        }
    }

    /// The headings line.
    func drawHeadings(into buffer: inout Buffer, y: Int, x: Int, style: Style) {
        let headings = [(0, date, "started"), (wordX, word, "result"), (idX, id, "update"), (titleX, title, "title"), (jobX, job, "job")]
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
