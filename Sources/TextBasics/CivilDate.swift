/// A date on the proleptic Gregorian calendar with no time zone (an RFC 3339 timestamp's date, a
/// patch policy's blackout dates), in place of Foundation's `Calendar`, which needs ICU. Days
/// are counted from 1970-01-01 with Howard Hinnant's algorithms, exact for every year an `Int`
/// holds.
public struct CivilDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    /// 1 to 12.
    public let month: Int
    /// 1 to the month's last day.
    public let day: Int

    /// `nil` when the month or the day does not exist (`2026-02-29`).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.days(inMonth: month, of: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `daysSince1970` days after 1970-01-01 (negative: before it).
    public init(daysSince1970 days: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// A date written `YYYY-MM-DD` (four-digit year, two-digit month and day); `nil` for any other
    /// shape or a day that does not exist.
    public init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Days from 1970-01-01 to this date.
    public var daysSince1970: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 1970-01-01 was a Thursday.
    public var weekday: Weekday {
        Weekday(rawValue: ((daysSince1970 + 4) % 7 + 7) % 7)!
    }

    /// The date `count` days later (earlier when negative).
    public func adding(days count: Int) -> CivilDate { CivilDate(daysSince1970: daysSince1970 + count) }

    /// `YYYY-MM-DD`.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }

    /// 28 to 31; February's by the Gregorian leap rule.
    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
