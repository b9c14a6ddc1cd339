#if canImport(Glibc)
import Glibc
#endif

/// Times as the machine's local clock writes them (dpkg's log, `ps`): C's `strftime` and
/// `mktime` in the time zone of `TZ` or `/etc/localtime`, with no locale, in place of
/// Foundation's `DateFormatter`, which links ICU's data.
public enum LocalTimeText {
    /// `seconds` since 1970 as `format` (strftime's conversions) in local time: with
    /// `%Y-%m-%d %H:%M:%S`, `2026-11-25 13:11:19`. Empty when the text would exceed 255 bytes.
    public static func string(_ seconds: Int, format: String) -> String {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 256)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The seconds since 1970 of `text`, a local date and time written `YYYY-MM-DD HH:MM:SS`
    /// (dpkg's log), daylight saving time as the zone had it then; `nil` when `text` is not
    /// exactly that shape or names no real time.
    public static func seconds(ofDateTime text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " "),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        parts.tm_isdst = -1
        let seconds = mktime(&parts)
        guard seconds != -1, parts.tm_mday == day else { return nil }
        return Int(seconds)
    }
}
