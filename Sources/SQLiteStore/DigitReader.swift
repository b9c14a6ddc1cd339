/// Reads a date's fixed-width numbers and separators from its UTF-8 bytes, for `SQLiteDateText`.
struct DigitReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    /// The number of exactly `digits` decimal digits here; `nil` (reading nothing) otherwise.
    mutating func number(digits: Int) -> Int? {
        guard bytes.count - index >= digits else { return nil }
        var value = 0
        for offset in 0..<digits {
            let byte = bytes[index + offset]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    /// A fraction's digits here (at least one), as the fraction of a second they spell; digits
    /// past the 15th (far below a microsecond) are read and dropped.
    mutating func fraction() -> Double? {
        var numerator: Int64 = 0
        var denominator: Int64 = 1
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            if denominator < 1_000_000_000_000_000 {
                numerator = numerator * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                denominator *= 10
            }
            index += 1
        }
        // One division, so `.124` is the double nearest 0.124, as a decimal parse gives.
        return index > start ? Double(numerator) / Double(denominator) : nil
    }

    /// Skips `character` when it comes next, saying whether it did.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }
}
