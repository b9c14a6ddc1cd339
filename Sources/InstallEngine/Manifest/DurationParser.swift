/// Reads the durations manifests use: `500ms`, `10s`, `5m`, `2h`, and sums of them such as
/// `1h30m` or `1m30s` (Go's `time.ParseDuration` style; decimals such as `1.5s` work too).
public enum DurationParser {
    // MARK: - Parsing

    /// The duration `text` stands for, or `nil` when it is not one: empty text, a bare number
    /// (`30`: the unit is never guessed), an unknown or upper-case unit, a sign, whitespace, or
    /// a total that does not fit in 64-bit nanoseconds (about 292 years).
    public static func parse(_ text: String) -> Duration? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        var index = 0
        var totalNanoseconds: Int64 = 0
        while index < bytes.count {
            guard let term = term(in: bytes, from: &index) else { return nil }
            let (sum, overflow) = totalNanoseconds.addingReportingOverflow(term)
            guard !overflow else { return nil }
            totalNanoseconds = sum
        }
        return .nanoseconds(totalNanoseconds)
    }

    // MARK: - One number and its unit

    /// Reads `12`, `12.5` or `.5` followed by a unit, advancing `index`; the value in
    /// nanoseconds, or `nil` when the text there is not a number with a known unit.
    private static func term(in bytes: [UInt8], from index: inout Int) -> Int64? {
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
        guard digitCount > 0, let unit = unitNanoseconds(in: bytes, from: &index) else { return nil }
        let (wholeNanoseconds, overflow1) = whole.multipliedReportingOverflow(by: unit)
        guard !overflow1 else { return nil }
        // The fraction is below one unit (at most an hour), so the Double is exact to well
        // under a nanosecond before rounding.
        let fractionNanoseconds = Int64((fraction * Double(unit)).rounded())
        let (sum, overflow2) = wholeNanoseconds.addingReportingOverflow(fractionNanoseconds)
        return overflow2 ? nil : sum
    }

    private static func digitValue(_ byte: UInt8) -> Int64? {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        return Int64(byte - UInt8(ascii: "0"))
    }

    /// `ms` must be tried before `m`.
    private static func unitNanoseconds(in bytes: [UInt8], from index: inout Int) -> Int64? {
        let units: [(name: [UInt8], nanoseconds: Int64)] = [
            (Array("ms".utf8), 1_000_000),
            (Array("s".utf8), 1_000_000_000),
            (Array("m".utf8), 60_000_000_000),
            (Array("h".utf8), 3_600_000_000_000),
        ]
        for unit in units where bytes[index...].starts(with: unit.name) {
            index += unit.name.count
            return unit.nanoseconds
        }
        return nil
    }
}
