import EngineWire
import Foundation
import Testing
import InstallEngineTesting

@Suite("RFC3339: writing, the fast reader and the fallback")
struct RFC3339Tests {
    /// A date at a whole millisecond, built the way a reader of `YYYY-MM-DDTHH:MM:SS.mmmZ` would.
    private static func date(seconds: Int, milliseconds: Int) -> Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000)
    }

    @Test(arguments: [
        (0, 0, "1970-01-01T00:00:00.000Z"),
        (951_782_400, 0, "2000-02-29T00:00:00.000Z"),
        (4_102_444_799, 999, "2099-12-31T23:59:59.999Z"),
        (1_795_322_400, 125, "2026-11-22T04:40:00.125Z"),
        (-1, 500, "1969-12-31T23:59:59.500Z"),
    ])
    func knownDates(seconds: Int, milliseconds: Int, text: String) throws {
        let date = Self.date(seconds: seconds, milliseconds: milliseconds)
        #expect(RFC3339.string(from: date) == text)
        let parsed = try #require(RFC3339.date(from: text))
        #expect(abs(parsed.timeIntervalSince(date)) < 0.0005)
    }

    // A whole-millisecond date's Double often lies just below the millisecond (1.237 is
    // 1.23699999…): written truncated it would come out 1 ms early, and lose another at every
    // read and write.

    @Test func aMillisecondJustBelowItsDoubleIsWrittenAsIs() {
        #expect(RFC3339.string(from: Self.date(seconds: 1_795_322_400, milliseconds: 123)) == "2026-11-22T04:40:00.123Z")
    }

    @Test func everyMillisecondOfASecondSurvives() {
        var wrong: [String] = []
        for milliseconds in 0..<1000 {
            let date = Self.date(seconds: 1_795_322_400, milliseconds: milliseconds)
            let text = RFC3339.string(from: date)
            if !text.hasSuffix(String(format: ".%03dZ", milliseconds)) { wrong.append("\(milliseconds) → \(text)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of 1000 milliseconds written wrong, e.g. \(wrong.prefix(5))")
    }

    @Test(arguments: 0..<4)
    func manyDatesRoundTripToTheMillisecond(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 77)
        var unparsed: [String] = []
        var drifted: [String] = []
        for _ in 0..<2000 {
            // 1970 to 2099, at whole milliseconds.
            let seconds = Int.random(in: 0..<4_102_444_800, using: &generator)
            let date = Self.date(seconds: seconds, milliseconds: Int.random(in: 0..<1000, using: &generator))
            let text = RFC3339.string(from: date)
            guard let parsed = RFC3339.date(from: text) else {
                unparsed.append(text)
                continue
            }
            if abs(parsed.timeIntervalSince(date)) >= 0.0005 || RFC3339.string(from: parsed) != text {
                drifted.append("\(date.timeIntervalSince1970) → \(text) → \(RFC3339.string(from: parsed))")
            }
        }
        #expect(unparsed.isEmpty, "what string(from:) writes must parse: \(unparsed.prefix(3))")
        #expect(drifted.isEmpty, "\(drifted.count) of 2000 drifted, e.g. \(drifted.prefix(3))")
    }

    @Test func datesAtEighthsOfASecondRoundTripExactly() throws {
        // Binary fractions are exact in a Double.
        for seconds in stride(from: 0, to: 4_102_444_800, by: 86_399_937) {
            for milliseconds in stride(from: 0, to: 1000, by: 125) {
                let date = Self.date(seconds: seconds, milliseconds: milliseconds)
                let text = RFC3339.string(from: date)
                #expect(RFC3339.date(from: text) == date, "\(text)")
            }
        }
    }

    @Test func otherFormsParseThroughTheFallback() throws {
        let base = Date(timeIntervalSince1970: 1_795_322_400)
        #expect(RFC3339.date(from: "2026-11-22T04:40:00Z") == base)
        #expect(RFC3339.date(from: "2026-11-22T06:40:00+02:00") == base)
        #expect(RFC3339.date(from: "2026-11-22T01:40:00-03:00") == base)
    }

    @Test func otherFractionsParseThroughTheFallback() throws {
        let base = Date(timeIntervalSince1970: 1_795_322_400)
        // RFC 3339 allows any number of fraction digits; the doc comment promises them.
        let one = try #require(RFC3339.date(from: "2026-11-22T04:40:00.5Z"))
        #expect(abs(one.timeIntervalSince(base) - 0.5) < 0.0005)
        let six = try #require(RFC3339.date(from: "2026-11-22T04:40:00.123456Z"))
        #expect(abs(six.timeIntervalSince(base) - 0.123456) < 0.0005)
        let offset = try #require(RFC3339.date(from: "2026-11-22T06:40:00.250+02:00"))
        #expect(abs(offset.timeIntervalSince(base) - 0.25) < 0.0005)
    }

    @Test(arguments: [
        "", "garbage", "2026-13-01T00:00:00.000Z", "2026-11-22 04:40:00.000Z", "2026-11-32T04:40:00.000Z",
        "2026-11-22T04:40:00.12xZ", "2026-11-22", "12:00:00Z",
    ])
    func garbageIsNil(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test func impossibleDaysAreNotDates() {
        #expect(RFC3339.date(from: "2026-02-30T04:40:00.000Z") == nil)
        #expect(RFC3339.date(from: "2024-02-29T00:00:00.000Z") != nil, "a leap day is a date")
    }
}
