#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics

/// Dates as RFC 3339 in UTC with milliseconds (`2026-11-22T04:40:00.123Z`), written and read
/// without the cost of a formatter per event.
public enum RFC3339 {
    /// `date` in UTC with milliseconds (dates before 1970 and after 9999 included).
    public static func string(from date: Date) -> String {
        var bytes: [UInt8] = []
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `string(from:)`, its 24 bytes appended to `bytes` (the JSON writer's buffer: no string
    /// made per event).
    public static func append(_ date: Date, to bytes: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        // Rounded, not truncated: a whole millisecond is rarely exact in binary, and truncating
        // would write most of them 1 ms early.
        let totalMilliseconds = Int64((interval * 1000).rounded())
        let (days, dayMilliseconds) = floorDivision(totalMilliseconds, 86_400_000)
        let civil = CivilDate(daysSince1970: Int(days))
        let seconds = Int(dayMilliseconds / 1000)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 24))
        func put(_ value: Int, at offset: Int, width: Int) {
            var value = value
            for position in stride(from: start + offset + width - 1, through: start + offset, by: -1) {
                bytes[position] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(civil.year, at: 0, width: 4)
        put(civil.month, at: 5, width: 2)
        put(civil.day, at: 8, width: 2)
        put(seconds / 3600, at: 11, width: 2)
        put(seconds / 60 % 60, at: 14, width: 2)
        put(seconds % 60, at: 17, width: 2)
        put(Int(dayMilliseconds % 1000), at: 20, width: 3)
        bytes[start + 4] = UInt8(ascii: "-")
        bytes[start + 7] = UInt8(ascii: "-")
        bytes[start + 10] = UInt8(ascii: "T")
        bytes[start + 13] = UInt8(ascii: ":")
        bytes[start + 16] = UInt8(ascii: ":")
        bytes[start + 19] = UInt8(ascii: ".")
        bytes[start + 23] = UInt8(ascii: "Z")
    }

    /// Reads what `string(from:)` writes directly; any other RFC 3339 form (an offset, no
    /// fraction, more digits) through Foundation. `nil` when `text` is not a date.
    public static func date(from text: String) -> Date? {
        var text = text
        let isOurForm = text.withUTF8 { bytes in
            bytes.count == 24 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
                && bytes[10] == UInt8(ascii: "T") && bytes[13] == UInt8(ascii: ":") && bytes[16] == UInt8(ascii: ":")
                && bytes[19] == UInt8(ascii: ".") && bytes[23] == UInt8(ascii: "Z")
        }
        // Our own form is read here only: Foundation would take February 30 for March 2.
        if isOurForm { return text.withUTF8(fastDate) }
        return try? Date(text, strategy: .iso8601)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, its shape already checked; `nil` for an impossible date.
    private static func fastDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            let millisecond = number(20..<23),
            let civil = CivilDate(year: year, month: month, day: day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = civil.daysSince1970
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + Double(millisecond) / 1000
        return Date(timeIntervalSince1970: seconds)
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = ((value % divisor) + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }
}
