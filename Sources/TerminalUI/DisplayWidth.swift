/// How many terminal cells text takes, computed from Unicode data (not libc `wcwidth`, which
/// depends on the locale and the C library's Unicode version).
///
/// Rules, per scalar: C0/C1 controls and DEL, nonspacing and enclosing marks, format characters
/// (U+00AD, U+200B, bidi controls …) and Hangul medial/final jamo are 0; East Asian Wide and
/// Fullwidth characters and emoji with emoji presentation are 2; everything else is 1. A
/// grapheme takes the width of its first scalar (combining marks, ZWJ sequences, skin tones and
/// the second flag letter stay inside it), raised to 2 when it contains the emoji variation
/// selector U+FE0F; a grapheme whose first scalar takes no column is as wide as its widest one.
public enum DisplayWidth {
    // MARK: - Graphemes and strings

    /// Columns of one grapheme: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        var scalars = character.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return 0 }
        let width = of(first)
        guard width < 2, var next = scalars.next() else { return width }
        var widest = width
        while true {
            if next.value == 0xFE0F, width == 1 { return 2 }
            if width == 0 { widest = max(widest, of(next)) }
            guard let following = scalars.next() else { return widest }
            next = following
        }
    }

    /// Columns of a string: the sum over its graphemes.
    public static func of(_ text: String) -> Int {
        var total = 0
        for byte in text.utf8 {
            guard byte >= 0x20 && byte < 0x7F else {
                total = 0
                for character in text {
                    total += of(character)
                }
                return total
            }
            total += 1
        }
        return total
    }

    /// Columns of one scalar taken on its own: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value <= 0xFFFF {
            return Int(basicPlaneWidths[Int(value >> 2)] >> UInt8((value & 3) * 2) & 3)
        }
        return computedWidth(scalar)
    }

    // MARK: - Private

    /// Widths of U+0000–U+FFFF, 2 bits each, four per byte (16 kB), built once from the range
    /// tables so the common case is one array read.
    private static let basicPlaneWidths: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 0x10000 / 4)
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            table[Int(value >> 2)] |= UInt8(computedWidth(scalar)) << UInt8((value & 3) * 2)
        }
        return table
    }()

    private static func computedWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        if value < 0x300 { return value == 0xAD ? 0 : 1 }
        if contains(value, in: zeroWidthRanges) { return 0 }
        if value >= 0x1100, contains(value, in: wideRanges) { return 2 }
        // Emoji with emoji presentation below U+1F000 are all in the wide table; newer ones above
        // may not be.
        if value >= 0x1F000, scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    private static func contains(_ value: UInt32, in ranges: [ClosedRange<UInt32>]) -> Bool {
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = ranges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
