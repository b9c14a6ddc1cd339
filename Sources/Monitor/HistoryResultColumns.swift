#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TerminalUI

/// The columns both lists of the history view begin with, for an inner width: the date (without
/// its year below 60 columns), the result's mark, and the result's word (none below 70
/// columns). `HistoryColumns` and `JobRunColumns` go on from `endX`.
struct HistoryResultColumns: Sendable, Hashable {
    let width: Int

    var showsYear: Bool { width >= 60 }
    var date: Int { showsYear ? 16 : 11 }
    var markX: Int { date + 1 }
    var wordX: Int { markX + 2 }
    /// Zero when the word is not shown.
    var word: Int { width >= 70 ? 11 : 0 }
    /// Where the next column starts.
    var endX: Int { wordX + word + (word > 0 ? 1 : 0) }

    /// Their headings, at `x` on line `y`.
    func drawHeadings(into buffer: inout Buffer, y: Int, x: Int, style: Style) {
        for (column, width, text) in [(0, date, "started"), (wordX, word, "result")] where width > 0 {
            buffer.write(text, x: x + column, y: y, style: style, maxWidth: width)
        }
    }

    /// A row's: its date in `timeZone` (none when it has none) in `dateStyle`, then its result's
    /// `mark` and `resultWord` in `resultStyle`.
    func draw(date: Date?, mark: Character, resultWord: String, into buffer: inout Buffer, x: Int, y: Int, timeZone: TimeZone,
              dateStyle: Style, resultStyle: Style) {
        if let date {
            buffer.write(HistoryColumns.dateText(date, timeZone: timeZone, withYear: showsYear), x: x, y: y, style: dateStyle,
                         maxWidth: self.date)
        }
        buffer.set(mark, x: x + markX, y: y, style: resultStyle)
        if word > 0 {
            buffer.write(resultWord, x: x + wordX, y: y, style: resultStyle, maxWidth: word)
        }
    }
}
