/// Reads the percentages of progress-channel lines straight from bytes: `42`, `42.5`, `7.`,
/// `.5`. No sign, no exponent, no `nan`/`inf`: anything else is not a number here.
enum DecimalPercent {
    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// The number written in `bytes[range]`, or `nil` when those bytes are not a plain decimal.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawPoint = false
        for index in range {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                if sawPoint { return nil }
                sawPoint = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
                if sawPoint { fractionDigits += 1 }
                if digits <= 15 { mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0")) }
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        // Up to 15 digits the mantissa and the power of ten are exact doubles, so one
        // division is correctly rounded; longer numbers take the slow, exact path.
        if digits <= 15, fractionDigits < exactPowersOfTen.count {
            return Double(mantissa) / exactPowersOfTen[fractionDigits]
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }
}
