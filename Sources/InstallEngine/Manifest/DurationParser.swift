/// Reads the durations manifests use: `500ms`, `10s`, `5m`, `2h`, and sums of them such as
/// `1h30m` or `1m30s` (Go's `time.ParseDuration` style; decimals such as `1.5s` work too).
public enum DurationParser {
    /// A unit a duration may be written in, and how many nanoseconds it stands for.
    public struct Unit: Sendable {
        let name: [UInt8]
        let nanoseconds: Int64

        public static let milliseconds = Unit(name: Array("ms".utf8), nanoseconds: 1_000_000)
        public static let seconds = Unit(name: Array("s".utf8), nanoseconds: 1_000_000_000)
        public static let minutes = Unit(name: Array("m".utf8), nanoseconds: 60_000_000_000)
        public static let hours = Unit(name: Array("h".utf8), nanoseconds: 3_600_000_000_000)
        public static let days = Unit(name: Array("d".utf8), nanoseconds: 86_400_000_000_000)
    }

    /// The units manifests take. `ms` must be tried before `m`.
    public static let manifestUnits: [Unit] = [.milliseconds, .seconds, .minutes, .hours]

    // MARK: - Parsing

    /// The duration `text` stands for, or `nil` when it is not one: empty text, a bare number
    /// (`30`: the unit is never guessed), a unit not in `units` or upper-case, a sign,
    /// whitespace, or a total that does not fit in 64-bit nanoseconds (about 292 years).
    /// - Parameter units: those it may be written in, tried in order (a longer name before a
    ///   shorter one it starts with).
    public static func parse(_ text: String, units: [Unit] = manifestUnits) -> Duration? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        var index = 0
        var totalNanoseconds: Int64 = 0
        while index < bytes.count {
            guard let term = term(in: bytes, from: &index, units: units) else { return nil }
            let (sum, overflow) = totalNanoseconds.addingReportingOverflow(term)
            guard !overflow else { return nil }
            totalNanoseconds = sum
        }
        return .nanoseconds(totalNanoseconds)
    }

    // MARK: - One number and its unit

    /// Reads `12`, `12.5` or `.5` followed by a unit, advancing `index`; the value in
    /// nanoseconds, or `nil` when the text there is not a number with a known unit.
    private static func term(in bytes: [UInt8], from index: inout Int, units: [Unit]) -> Int64? {
        var whole: Int64 = 0
        var digitCount = 0
        while index < bytes.count, let digit = digitValue(bytes[index]) {
            let (times10, overflow1) = whole.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            whole = sum
            digitCount += 1
            index += 1
        }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < bytes.count, let digit = digitValue(bytes[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                digitCount += 1
                index += 1
            }
        }
        guard digitCount > 0, let unit = unitNanoseconds(in: bytes, from: &index, units: units) else { return nil }
        let (wholeNanoseconds, overflow1) = whole.multipliedReportingOverflow(by: unit)
        guard !overflow1 else { return nil }
        // The fraction is below one unit (at most a day, 8.64e13 ns, under 2^53), so the
        // Double is exact to well under a nanosecond before rounding.
        let fractionNanoseconds = Int64((fraction * Double(unit)).rounded())
        let (sum, overflow2) = wholeNanoseconds.addingReportingOverflow(fractionNanoseconds)
        return overflow2 ? nil : sum
    }

    private static func digitValue(_ byte: UInt8) -> Int64? {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        return Int64(byte - UInt8(ascii: "0"))
    }

    private static func unitNanoseconds(in bytes: [UInt8], from index: inout Int, units: [Unit]) -> Int64? {
        for unit in units where bytes[index...].starts(with: unit.name) {
            index += unit.name.count
            return unit.nanoseconds
        }
        return nil
    }
}
