#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PatchPolicy
import Testing
import TextBasics

/// Offsets of IANA zones without Foundation's ICU: POSIX rules, TZif files, and wall-clock
/// times that occur twice or never.
@Suite("Policy: time zones")
struct ZoneRulesTests {
    @Test("Berlin's rule: CET in winter, CEST from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October")
    func posixRule() {
        let zone = TestZones.berlin
        #expect(zone.offset(at: TestZones.utcInstant(2026, 1, 15, 12)).seconds == 3600)
        #expect(zone.offset(at: TestZones.utcInstant(2026, 3, 29, 0, 59)).seconds == 3600)
        #expect(zone.offset(at: TestZones.utcInstant(2026, 3, 29, 1, 0)).seconds == 7200)
        #expect(zone.offset(at: TestZones.utcInstant(2026, 3, 29, 1, 0)).abbreviation == "CEST")
        #expect(zone.offset(at: TestZones.utcInstant(2026, 10, 25, 0, 59)).seconds == 7200)
        #expect(zone.offset(at: TestZones.utcInstant(2026, 10, 25, 1, 0)).seconds == 3600)
    }

    @Test("A wall-clock time in the spring gap is moved forward by it; one that occurs twice in autumn is the first")
    func localTimes() {
        let zone = TestZones.berlin
        let gap = CivilDate(year: 2026, month: 3, day: 29)!.daysSince1970 * 86_400 + 2 * 3600 + 30 * 60
        // 02:30 does not exist that night: 03:30 CEST, 01:30 UTC.
        #expect(zone.instant(ofLocal: gap) == TestZones.utcInstant(2026, 3, 29, 1, 30))
        let twice = CivilDate(year: 2026, month: 10, day: 25)!.daysSince1970 * 86_400 + 2 * 3600 + 30 * 60
        // 02:30 CEST (00:30 UTC) comes before 02:30 CET (01:30 UTC).
        #expect(zone.instant(ofLocal: twice) == TestZones.utcInstant(2026, 10, 25, 0, 30))
        let plain = CivilDate(year: 2026, month: 7, day: 1)!.daysSince1970 * 86_400 + 2 * 3600
        #expect(zone.instant(ofLocal: plain) == TestZones.utcInstant(2026, 7, 1, 0))
    }

    @Test("A southern zone: Sydney's summer time spans the new year, from the first Sunday of October to the first Sunday of April")
    func southernRule() throws {
        let sydney = ZoneRules(name: "Australia/Sydney", rule: try #require(PosixZoneRule("AEST-10AEDT,M10.1.0,M4.1.0/3")))
        #expect(sydney.offset(at: TestZones.utcInstant(2026, 1, 15, 0)).seconds == 39_600)
        #expect(sydney.offset(at: TestZones.utcInstant(2026, 4, 4, 15, 59)).seconds == 39_600)
        #expect(sydney.offset(at: TestZones.utcInstant(2026, 4, 4, 16)).seconds == 36_000)
        #expect(sydney.offset(at: TestZones.utcInstant(2026, 10, 3, 15, 59)).seconds == 36_000)
        #expect(sydney.offset(at: TestZones.utcInstant(2026, 10, 3, 16)).seconds == 39_600)
        // Nuuk's changes are at negative local times (tz's version 3 extension).
        let nuuk = try #require(PosixZoneRule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
        #expect(nuuk.offset(at: TestZones.utcInstant(2026, 3, 29, 0, 59)).offset == -7200)
        #expect(nuuk.offset(at: TestZones.utcInstant(2026, 3, 29, 1)).offset == -3600)
    }

    @Test("Rules this reader does not understand are nil, not a wrong zone")
    func unreadableRules() {
        #expect(PosixZoneRule("") == nil)
        #expect(PosixZoneRule("CET-1CEST,J60,J300") == nil)
        #expect(PosixZoneRule("<+03>-3")?.standardOffset == 10_800)
        #expect(PosixZoneRule("EST5EDT,M3.2.0,M11.1.0")?.daylight?.offset == -14_400)
    }

    @Test("The system's TZif file for Europe/Berlin agrees with its rule from 1996 to 2060",
          .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin")))
    func zoneInfoFile() throws {
        let file = try #require(ZoneInfoFile.rules(named: "Europe/Berlin", in: "/usr/share/zoneinfo"))
        var instant = TestZones.utcInstant(1996, 1, 1, 0)
        let end = TestZones.utcInstant(2060, 1, 1, 0)
        while instant < end {
            #expect(file.offset(at: instant).seconds == TestZones.berlin.offset(at: instant).seconds, "at \(instant)")
            instant += 6 * 3600 + 17
        }
        #expect(ZoneInfoFile.rules(named: "../etc/passwd", in: "/usr/share/zoneinfo") == nil)
        #expect(ZoneInfoFile.rules(named: "Not/AZone", in: "/usr/share/zoneinfo") == nil)
    }
}
