import PatchPolicy
import Testing
import TextBasics

/// When windows open: in the policy's zone, across daylight saving changes, around blackouts,
/// and while one is open, all on a clock the test sets.
@Suite("Policy: windows")
struct WindowScheduleTests {
    /// Tuesdays and Sundays 02:30 for 3 hours, Berlin time.
    static let windows = [PatchWindow(days: [.tuesday, .sunday], startMinute: 150, duration: 3 * 3600)]

    @Test("Across the spring change: Tuesday's window opens at 01:30 UTC in winter, Sunday's 02:30 falls in the gap and opens at 03:30 CEST, Tuesday's then at 00:30 UTC")
    func springForward() throws {
        let schedule = WindowSchedule(windows: Self.windows, blackouts: [], zone: TestZones.berlin)
        let tuesday = try #require(schedule.occurrence(at: TestZones.utcInstant(2026, 3, 23, 12)))
        #expect(tuesday.start == TestZones.utcInstant(2026, 3, 24, 1, 30))
        let sunday = try #require(schedule.occurrence(at: tuesday.end))
        #expect(sunday.start == TestZones.utcInstant(2026, 3, 29, 1, 30))
        // 3 real hours, whatever the clocks did.
        #expect(sunday.end - sunday.start == 3 * 3600)
        let summer = try #require(schedule.occurrence(at: sunday.end))
        #expect(summer.start == TestZones.utcInstant(2026, 3, 31, 0, 30))
    }

    @Test("Across the autumn change: Sunday's 02:30 occurs twice and opens at the first, 00:30 UTC; Tuesday's is back at 01:30 UTC")
    func fallBack() throws {
        let schedule = WindowSchedule(windows: Self.windows, blackouts: [], zone: TestZones.berlin)
        let sunday = try #require(schedule.occurrence(at: TestZones.utcInstant(2026, 10, 24, 12)))
        #expect(sunday.start == TestZones.utcInstant(2026, 10, 25, 0, 30))
        let tuesday = try #require(schedule.occurrence(at: sunday.end))
        #expect(tuesday.start == TestZones.utcInstant(2026, 10, 27, 1, 30))
    }

    @Test("A blackout date skips that day's window; a range skips each of its days; the window open now is the current one")
    func blackouts() throws {
        let christmas = BlackoutPeriod(first: CivilDate(year: 2026, month: 12, day: 22)!, last: CivilDate(year: 2026, month: 12, day: 27)!)
        let schedule = WindowSchedule(windows: Self.windows, blackouts: [christmas], zone: TestZones.berlin)
        // Tue 22nd and Sun 27th are blacked out: the next is Tue 29th, 02:30 CET.
        let next = try #require(schedule.occurrence(at: TestZones.utcInstant(2026, 12, 21, 12)))
        #expect(next.start == TestZones.utcInstant(2026, 12, 29, 1, 30))
        let during = TestZones.utcInstant(2026, 12, 29, 3)
        #expect(schedule.occurrence(at: during) == next)
        #expect(next.isOpen(at: during))
        #expect(!next.isOpen(at: next.end))
    }

    @Test("A window past midnight belongs to the day it starts on and is still open the next morning")
    func pastMidnight() throws {
        let late = [PatchWindow(days: [.saturday], startMinute: 23 * 60, duration: 4 * 3600)]
        let schedule = WindowSchedule(windows: late, blackouts: [], zone: TestZones.utc)
        let sundayMorning = TestZones.utcInstant(2026, 6, 7, 1)
        let open = try #require(schedule.occurrence(at: sundayMorning))
        #expect(open.start == TestZones.utcInstant(2026, 6, 6, 23))
        #expect(open.isOpen(at: sundayMorning))
    }

    @Test("Windows that all fall on blackout days have no next window")
    func noWindow() {
        let always = BlackoutPeriod(first: CivilDate(year: 2000, month: 1, day: 1)!, last: CivilDate(year: 2100, month: 1, day: 1)!)
        let schedule = WindowSchedule(windows: Self.windows, blackouts: [always], zone: TestZones.utc)
        #expect(schedule.occurrence(at: TestZones.utcInstant(2026, 1, 1, 0)) == nil)
    }
}
