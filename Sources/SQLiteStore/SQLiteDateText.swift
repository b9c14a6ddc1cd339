#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Dates as text: `yyyy-MM-dd HH:mm:ss.SSS` in UTC, the text GRDB wrote for a `Date` (so every
/// history written before reads the same) and one SQLite's date functions read.
///
/// Written by hand, with `gmtime_r` and `timegm`: a `DateFormatter` would bring Foundation's
/// internationalization (and ICU's data) into the binary, and costs more than the rest of a
/// row's write.
public enum SQLiteDateText {
    /// `2024-05-01 12:00:00.250` for `date`. Milliseconds are rounded to the nearest, as GRDB's
    /// formatter did; years outside 0...9999 are clamped.
    public static func text(_ date: Date) -> String {
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

    /// The date `text` spells in UTC: `yyyy-MM-dd`, optionally followed (after a space or a `T`)
    /// by `HH:mm`, `HH:mm:ss` or `HH:mm:ss.fraction` (any number of fraction digits), the forms
    /// GRDB read; `nil` for anything else, trailing characters and out-of-range fields included.
    public static func date(from text: String) -> Date? {
        var reader = DigitReader(Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"), let month = reader.number(digits: 2), reader.skip("-"),
              let day = reader.number(digits: 2), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        if !reader.isAtEnd {
            guard reader.skip(" ") || reader.skip("T"), let h = reader.number(digits: 2), reader.skip(":"),
                  let m = reader.number(digits: 2), h < 24, m < 60 else { return nil }
            hour = h
            minute = m
            if reader.skip(":") {
                guard let s = reader.number(digits: 2), s < 60 else { return nil }
                second = s
                if reader.skip(".") {
                    guard let digits = reader.fraction() else { return nil }
                    fraction = digits
                }
            }
            guard reader.isAtEnd else { return nil }
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
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
