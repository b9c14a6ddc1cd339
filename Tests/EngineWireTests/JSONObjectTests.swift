import EngineWire
import Foundation
import Testing

/// `JSONObject` writes numbers, integers, dates and strings into its buffer itself; what it
/// writes is what the contract's plain forms say (`String(_:)` of the number rounded to
/// hundredths, `String(_:)` of an integer, `RFC3339`).
struct JSONObjectTests {
    /// What `number(_:)` wrote when it went through `String(_:)` for every number.
    private static func reference(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) + ".0" }
        return String(rounded)
    }

    @Test("numbers: two decimals at most, one at least, as String(_:) of the hundredths writes them, at every magnitude")
    func numbersMatchTheirPlainForm() {
        let edges: [Double] = [
            0, -0.0, 0.004, -0.004, 0.005, 0.015, 0.1, 0.29, 1, 9.99, 33.33, 42, 99.995, 99.999, 100, -12.34, -0.5,
            1e13 - 0.01, 1e13, 1e13 + 0.25, 1e15, 1e15 + 2, 1e16, 1e20, -1e20, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
            .nan, .infinity, -.infinity,
        ]
        for value in edges {
            #expect(JSONObject.number(value) == Self.reference(value), "\(value)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -4...17, using: &generator)
            let value = (Bool.random(using: &generator) ? 1 : -1) * Double.random(in: 1..<10, using: &generator) * pow(10, magnitude.rounded(.down))
            #expect(JSONObject.number(value) == Self.reference(value), "\(value)")
        }
    }

    @Test("integers as String(_:) writes them, both ends included")
    func integersMatchTheirPlainForm() {
        for value: Int64 in [0, 9, 10, 99, 100, -1, -10, 1_234_567_890, .max, .min] {
            var object = JSONObject()
            object.add("n", value)
            #expect(object.json == "{\"n\":\(value)}")
        }
    }

    @Test("a date is RFC3339's string, quoted")
    func datesAreRFC3339() {
        for seconds in [0, 1_795_000_000.123, -86_400.5, 253_402_300_799.999] {
            let date = Date(timeIntervalSince1970: seconds)
            var object = JSONObject()
            object.add("time", date: date)
            #expect(object.json == "{\"time\":\"\(RFC3339.string(from: date))\"}")
        }
    }

    @Test("strings with nothing to escape are copied whole; quotes, backslashes, controls, DEL and U+2028/9 are escaped, other text kept")
    func stringsAreEscapedOnlyWhereNeeded() {
        #expect(JSONObject.quoted("unpacking lab-base (1.0)") == "\"unpacking lab-base (1.0)\"")
        #expect(JSONObject.quoted("a\"b\\c\nd\re\tf\u{1}g\u{7F}h") == #""a\"b\\c\nd\re\tf\u0001g\u007fh""#)
        #expect(JSONObject.quoted("é ü \u{2028}\u{2029} ✓") == "\"é ü \\u2028\\u2029 ✓\"")
        var object = JSONObject()
        object.add("event", "progress")
        object.add("message", "café")
        #expect(object.finished() == Array(#"{"event":"progress","message":"café"}"#.utf8))
    }
}
