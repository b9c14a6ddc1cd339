import PatchPolicy
import TextBasics

/// Zones from POSIX rules, so the tests do not depend on the tz database the machine has:
/// Berlin's rule since 1996, and UTC.
enum TestZones {
    static let berlin = ZoneRules(name: "Europe/Berlin", rule: PosixZoneRule("CET-1CEST,M3.5.0,M10.5.0/3")!)
    static let utc = ZoneRules(name: "UTC", rule: PosixZoneRule("UTC0")!)

    static func lookup(_ name: String) -> ZoneRules? {
        switch name {
        case "Europe/Berlin": berlin
        case "UTC": utc
        default: nil
        }
    }

    /// Seconds since 1970 of a UTC date and time.
    static func utcInstant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Int {
        CivilDate(year: year, month: month, day: day)!.daysSince1970 * 86_400 + hour * 3600 + minute * 60
    }
}
