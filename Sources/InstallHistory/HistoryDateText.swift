import Foundation
import Glibc

/// Dates as the history stores them: `yyyy-MM-dd HH:mm:ss.SSS` in UTC, the text GRDB writes
/// for a `Date` and SQLite's date functions read.
///
/// Written by hand because GRDB formats through a `DateFormatter`, which costs more than the
/// rest of a row's write; rows written either way are the same (`HistoryDateTextTests`).
/// Milliseconds are rounded to the nearest, as the formatter does; years outside 0...9999 are clamped.
enum HistoryDateText {
    /// `2024-05-01 12:00:00.250` for `date`.
    static func text(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = Int((milliseconds / 1000).rounded(.down))
        let millisecond = Int(milliseconds - Double(seconds) * 1000)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let year = min(max(Int(parts.tm_year) + 1900, 0), 9999)
        var text = ""
        text.reserveCapacity(23)
        append(year, digits: 4, to: &text)
        text.append("-")
        append(Int(parts.tm_mon) + 1, digits: 2, to: &text)
        text.append("-")
        append(Int(parts.tm_mday), digits: 2, to: &text)
        text.append(" ")
        append(Int(parts.tm_hour), digits: 2, to: &text)
        text.append(":")
        append(Int(parts.tm_min), digits: 2, to: &text)
        text.append(":")
        append(Int(parts.tm_sec), digits: 2, to: &text)
        text.append(".")
        append(millisecond, digits: 3, to: &text)
        return text
    }

    private static func append(_ value: Int, digits: Int, to text: inout String) {
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            text.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8(rest / divisor)))
            rest %= divisor
            divisor /= 10
        }
    }
}
