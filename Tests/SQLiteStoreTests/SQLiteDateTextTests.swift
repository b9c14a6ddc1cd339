#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import Testing

@Suite("Dates as text: written as GRDB wrote them, read in GRDB's forms")
struct SQLiteDateTextTests {
    @Test(arguments: [
        (0, "1970-01-01 00:00:00.000"), (0.9995, "1970-01-01 00:00:01.000"), (59.9999, "1970-01-01 00:01:00.000"),
        (951_782_400.5, "2000-02-29 00:00:00.500"), (1_700_000_000.123, "2023-11-14 22:13:20.123"),
        (1_767_225_599.999, "2025-12-31 23:59:59.999"), (4_102_444_800, "2100-01-01 00:00:00.000"),
        (253_402_300_799.999, "9999-12-31 23:59:59.999"),
    ] as [(Double, String)])
    func written(seconds: Double, text: String) {
        #expect(SQLiteDateText.text(Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test(arguments: [
        ("2023-11-14 22:13:20.123", 1_700_000_000.123), ("2023-11-14T22:13:20.123", 1_700_000_000.123),
        ("2023-11-14 22:13:20", 1_700_000_000), ("2023-11-14 22:13", 1_699_999_980), ("2023-11-14", 1_699_920_000),
        ("2023-11-14 22:13:20.1234567", 1_700_000_000.1234567),
    ] as [(String, Double)])
    func read(text: String, seconds: Double) throws {
        let date = try #require(SQLiteDateText.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
    }

    @Test(arguments: ["", "2023-11-14 ", "2023-13-01", "2023-11-14 25:00", "2023-11-14 22:13:20.", "2023-11-14 22:13:20Z", "yesterday"])
    func refused(text: String) {
        #expect(SQLiteDateText.date(from: text) == nil)
    }

    @Test func writtenDatesReadBackToTheMillisecond() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 0...2_000_000_000, using: &generator))
            let read = try #require(SQLiteDateText.date(from: SQLiteDateText.text(date)))
            // Half a millisecond (the text's rounding), plus what a Double resolves near 2e9 s
            // (2.4e-7 s): 1e-9 alone failed once, at 0.00050008.
            #expect(abs(read.timeIntervalSince(date)) <= 0.0005 + 1e-6, "\(date.timeIntervalSince1970)")
            #expect(SQLiteDateText.text(read) == SQLiteDateText.text(date))
        }
    }
}
