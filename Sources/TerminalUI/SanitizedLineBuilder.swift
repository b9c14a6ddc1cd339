/// The UTF-8 output of `TextSanitizer` so far, with the column count and what counting needs
/// to know about the grapheme being built.
struct SanitizedLineBuilder {
    var output: [UInt8] = []
    var column = 0
    /// Columns of the grapheme being built, so that U+FE0F can widen it to 2.
    var graphemeWidth = 0
    var hasGrapheme = false
    var afterJoiner = false
    var openRegionalIndicator = false

    mutating func appendBase(_ byte: UInt8) {
        output.append(byte)
        startGrapheme(width: 1)
    }

    mutating func appendBase(_ scalar: Unicode.Scalar, width: Int) {
        appendUTF8(scalar)
        startGrapheme(width: width)
    }

    mutating func appendTab(tabWidth: Int) {
        let spaces = tabWidth - column % tabWidth
        output.append(contentsOf: repeatElement(0x20, count: spaces))
        startGrapheme(width: spaces)
    }

    mutating func appendCaret(_ letter: UInt8) {
        output.append(0x5E)
        output.append(letter)
        startGrapheme(width: 2)
    }

    /// `⟨U+202E⟩` or `<U+202E>`.
    mutating func appendCodePoint(_ value: UInt32, open: Unicode.Scalar, close: Unicode.Scalar) {
        appendUTF8(open)
        output.append(contentsOf: "U+".utf8)
        let hex = String(value, radix: 16, uppercase: true)
        output.append(contentsOf: repeatElement(0x30, count: max(0, 4 - hex.utf8.count)))
        output.append(contentsOf: hex.utf8)
        appendUTF8(close)
        startGrapheme(width: 4 + max(4, hex.utf8.count))
    }

    /// A scalar that is neither ASCII nor to be replaced: it either continues the current
    /// grapheme or starts a new one. In ASCII mode (`keep == false`) continuations are dropped
    /// and a new grapheme becomes `?`.
    mutating func appendGraphemePart(_ scalar: Unicode.Scalar, keep: Bool) {
        if hasGrapheme, continuesGrapheme(scalar) {
            if keep { appendUTF8(scalar) }
            if scalar.value == 0xFE0F, graphemeWidth == 1 {
                graphemeWidth = 2
                column += 1
            }
            openRegionalIndicator = false
            afterJoiner = scalar.value == 0x200D
            return
        }
        let width = DisplayWidth.of(scalar)
        if keep {
            appendUTF8(scalar)
            startGrapheme(width: width)
        } else if width > 0 {
            output.append(0x3F)
            startGrapheme(width: 1)
        }
        openRegionalIndicator = isRegionalIndicator(scalar.value)
        afterJoiner = scalar.value == 0x200D
    }

    private mutating func startGrapheme(width: Int) {
        column += width
        graphemeWidth = width
        hasGrapheme = true
        afterJoiner = false
        openRegionalIndicator = false
    }

    private func continuesGrapheme(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if afterJoiner || value == 0x200D { return true }
        if openRegionalIndicator, isRegionalIndicator(value) { return true }
        if (0x1F3FB...0x1F3FF).contains(value) || (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) {
            return true
        }
        if value < 0x300 { return false }
        // Marks, variation selectors and the joiners that reach here all take no column.
        if DisplayWidth.of(scalar) == 0 { return true }
        // Spacing marks (Mc) exist only in these blocks; skip the property lookup elsewhere.
        if (0x2000..<0x302E).contains(value) || (0x3030..<0xA000).contains(value) || (0xAC00..<0x11000).contains(value) {
            return false
        }
        return scalar.properties.generalCategory == .spacingMark
    }

    private func isRegionalIndicator(_ value: UInt32) -> Bool {
        (0x1F1E6...0x1F1FF).contains(value)
    }

    private mutating func appendUTF8(_ scalar: Unicode.Scalar) {
        UTF8.encode(scalar) { output.append($0) }
    }
}
