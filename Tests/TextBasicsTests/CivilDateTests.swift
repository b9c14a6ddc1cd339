import Testing
import TextBasics

/// `CivilDate` counts days as Howard Hinnant's algorithms do, in place of Foundation's `Calendar`.
@Suite("CivilDate: dates and weekdays without a calendar library")
struct CivilDateTests {
    @Test("Weekdays, day counts either side of 1970, and every day of four centuries back and forth")
    func days() {
        #expect(CivilDate(year: 1970, month: 1, day: 1)!.weekday == .thursday)
        #expect(CivilDate(year: 2026, month: 3, day: 29)!.weekday == .sunday)
        let date = CivilDate(year: 1969, month: 12, day: 31)!
        #expect(date.daysSince1970 == -1)
        #expect(CivilDate(daysSince1970: date.daysSince1970) == date)
        // Day by day through a whole 400-year cycle, each date found again from its count and
        // the next one by the calendar's own rules.
        var day = CivilDate(year: 1900, month: 1, day: 1)!
        var wrong: [CivilDate] = []
        for count in day.daysSince1970..<(day.daysSince1970 + 146_097) {
            let next = CivilDate(year: day.year, month: day.month, day: day.day + 1)
                ?? CivilDate(year: day.year, month: day.month + 1, day: 1) ?? CivilDate(year: day.year + 1, month: 1, day: 1)!
            if day.daysSince1970 != count || CivilDate(daysSince1970: count) != day || day.adding(days: 1) != next { wrong.append(day) }
            day = next
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
        #expect(day == CivilDate(year: 2300, month: 1, day: 1))
    }

    @Test("Text: exactly YYYY-MM-DD of a day that exists; leap years by the Gregorian rule")
    func text() {
        #expect(CivilDate(text: "2028-02-29")?.description == "2028-02-29")
        #expect(CivilDate(text: "2026-02-29") == nil)
        #expect(CivilDate(text: "2100-02-29") == nil)
        #expect(CivilDate(text: "2000-02-29") != nil)
        #expect(CivilDate(text: "2026-2-01") == nil)
        #expect(CivilDate(text: "2026-13-01") == nil)
        #expect(Weekday(name: "Mon") == .monday)
        #expect(Weekday(name: "mo") == nil)
    }
}
