/// Turns one line of untrusted text (a child's output) into text that is safe to draw: nothing
/// in the result can act on the terminal, reorder the line or hide part of it.
///
/// Unicode mode:
/// - ESC becomes `␛` and the rest of an escape sequence stays as plain text, so `ESC [2J`
///   shows as `␛[2J` and OSC titles, OSC 8 links and OSC 52 clipboard writes are inert text.
/// - Other C0 controls become their Control Picture (BEL `␇`, NUL `␀`, CR `␍`), DEL `␡`.
/// - TAB becomes spaces up to the next multiple of `tabWidth` columns.
/// - C1 controls (U+0080–U+009F, including the one-byte CSI U+009B), bidi controls
///   (U+202A–U+202E, U+2066–U+2069, LRM, RLM, ALM), line and paragraph separators and every
///   other invisible format or default-ignorable character become `⟨U+XXXX⟩` (hex, at least
///   4 digits). Kept as they are: ZWJ and ZWNJ (emoji sequences, Indic and Persian text),
///   variation selectors, and the visible prepended concatenation marks (U+0600…).
///   Tag characters are shown too, so subdivision flags appear as 🏴 followed by tags.
/// - U+FFFD (what invalid UTF-8 decodes to) stays `�`.
///
/// ASCII mode (for a locale that is not UTF-8) makes the result pure printable ASCII: C0
/// controls in caret notation (`^[`, `^G`, DEL `^?`), C1 and invisible characters as
/// `<U+XXXX>`, combining marks and the rest of a grapheme dropped, and any other non-ASCII
/// grapheme as one `?`.
///
/// Work is linear in the length of the line. Columns are counted per scalar, approximating
/// grapheme clusters (marks, joiners, variation selectors, skin tones and flag pairs continue
/// the current grapheme), which matches `DisplayWidth` for real text.
public struct TextSanitizer: Sendable, Hashable {
    /// Which characters the result may contain.
    public enum Mode: Sendable, Hashable {
        /// Keep printable Unicode; for UTF-8 locales.
        case unicode
        /// Printable ASCII only; for other locales.
        case ascii
    }

    /// Which characters the result may contain.
    public var mode: Mode
    /// Tab stops every this many columns (at least 1).
    public var tabWidth: Int

    /// A sanitizer; Unicode mode with tab stops every 8 columns by default.
    public init(mode: Mode = .unicode, tabWidth: Int = 8) {
        self.mode = mode
        self.tabWidth = max(1, tabWidth)
    }

    /// The display-safe form of `line`.
    ///
    /// With `maxWidth`, work stops as soon as the result is wider than `maxWidth` columns: the
    /// result then holds every grapheme that fits in `maxWidth` plus the start of one more, so
    /// truncating it to `maxWidth` (`TextTruncation`) still shows an ellipsis.
    public func sanitize(_ line: String, maxWidth: Int? = nil) -> String {
        let limit = maxWidth ?? Int.max
        if isPlainPrintableASCII(line, limit: limit) { return line }
        var state = SanitizedLineBuilder()
        // A visible column takes at most 4 bytes, except the rare `⟨U+XXXX⟩` forms.
        state.output.reserveCapacity(limit >= line.utf8.count / 4 ? line.utf8.count + 16 : max(0, limit) * 4 + 16)
        for scalar in line.unicodeScalars {
            append(scalar, to: &state)
            if state.column > limit { break }
        }
        return String(decoding: state.output, as: UTF8.self)
    }

    // MARK: - One scalar

    /// What `scalar` becomes in the mode: the same classes in both, each written as the mode
    /// writes it (a Control Picture or caret notation, `⟨U+XXXX⟩` or `<U+XXXX>`, a grapheme
    /// kept or dropped for one `?`).
    private func append(_ scalar: Unicode.Scalar, to state: inout SanitizedLineBuilder) {
        let value = scalar.value
        let unicode = mode == .unicode
        switch value {
        case 0x20..<0x7F:
            state.appendBase(UInt8(value))
        case 0x09:
            state.appendTab(tabWidth: tabWidth)
        case 0x00..<0x20:
            if unicode { state.appendBase(Unicode.Scalar(0x2400 + value)!, width: 1) } else { state.appendCaret(UInt8(value) + 0x40) }
        case 0x7F:
            if unicode { state.appendBase(Unicode.Scalar(0x2421)!, width: 1) } else { state.appendCaret(0x3F) }
        case 0x80..<0xA0:
            appendCodePoint(value, to: &state)
        case 0xA0..<0x300 where unicode && value != 0xAD:
            state.appendBase(scalar, width: 1)
        default:
            if TextSanitizer.isInvisible(scalar) {
                appendCodePoint(value, to: &state)
            } else {
                state.appendGraphemePart(scalar, keep: unicode)
            }
        }
    }

    /// `⟨U+XXXX⟩`, or `<U+XXXX>` in ASCII mode.
    private func appendCodePoint(_ value: UInt32, to state: inout SanitizedLineBuilder) {
        switch mode {
        case .unicode: state.appendCodePoint(value, open: "⟨", close: "⟩")
        case .ascii: state.appendCodePoint(value, open: "<", close: ">")
        }
    }

    // MARK: - Classification

    /// Whether a scalar from U+00A0 up is invisible or reorders text and must be shown as a
    /// code point.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch value {
        case 0x200C, 0x200D:
            return false
        case 0x115F, 0x2028, 0x2029, 0x3164, 0xFFA0, 0xFFF0...0xFFF8, 0xE0000...0xE0FFF:
            // The only default-ignorable or separator code points that are not zero-width.
            return true
        default:
            guard DisplayWidth.of(scalar) == 0 else { return false }
        }
        let properties = scalar.properties
        if properties.generalCategory == .format {
            return !isPrependedConcatenationMark(value)
        }
        return properties.isDefaultIgnorableCodePoint && !properties.isVariationSelector
    }

    /// Format characters that draw a visible sign over the digits that follow them.
    private static func isPrependedConcatenationMark(_ value: UInt32) -> Bool {
        switch value {
        case 0x600...0x605, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0x110BD, 0x110CD: return true
        default: return false
        }
    }

    private func isPlainPrintableASCII(_ line: String, limit: Int) -> Bool {
        var count = 0
        for byte in line.utf8 {
            guard byte >= 0x20 && byte < 0x7F else { return false }
            count += 1
        }
        return count <= limit
    }
}
