/// What to send a terminal for one cell, so that the terminal's own idea of character widths
/// (libc `wcwidth`, which curses and many terminals use) advances exactly as many columns as the
/// buffer expects. When the two disagree, drawing would otherwise shift the rest of the row.
///
/// - The terminal agrees on the first scalar's width: send it with the zero-width scalars that
///   follow (combining marks, variation selectors), stopping before the first scalar the
///   terminal would give a column of its own (the rest of a ZWJ sequence or flag pair), and
///   without a trailing ZWJ.
/// - The buffer says 2 but the terminal says 1 (a flag, `❤` + U+FE0F): send only the first
///   scalar and a blank in the continuation column.
/// - Anything else (the terminal says 2 for a 1-column cell, or cannot print the character in
///   this locale): send U+FFFD (or `?` if the terminal cannot print that either), plus a blank
///   for a wide cell.
public struct TerminalGlyph: Sendable, Hashable {
    /// The grapheme to send, in a cell so it needs no allocation; its width is what the
    /// terminal will advance (1 or 2).
    public var cell: Cell
    /// True when the continuation column of a wide cell must be written with a blank.
    public var blankAfter: Bool

    /// Fits `cell` (not a continuation) for a terminal whose width function is
    /// `terminalWidth` (`wcwidth`: -1 unprintable, 0, 1, 2), keeping at most `maxScalars`
    /// scalars (curses' `CCHARW_MAX`, 5 on Linux).
    public static func fit(_ cell: Cell, maxScalars: Int, terminalWidth: (Unicode.Scalar) -> Int) -> TerminalGlyph {
        let expected = Int(max(1, cell.width))
        let base = cell.scalar(at: 0)
        let baseWidth = terminalWidth(base)
        if baseWidth == expected {
            var text = String.UnicodeScalarView()
            text.append(base)
            for index in 1..<max(1, cell.scalarCount) {
                let scalar = cell.scalar(at: index)
                guard text.count < maxScalars, terminalWidth(scalar) == 0 else { break }
                text.append(scalar)
            }
            if text.count > 1, text.last == "\u{200D}" {
                text.removeLast()
            }
            return TerminalGlyph(cell: Cell(scalars: text, style: cell.style, width: UInt8(expected)), blankAfter: false)
        }
        if baseWidth == 1, expected == 2 {
            return TerminalGlyph(cell: Cell(character: Character(base), style: cell.style, width: 1), blankAfter: true)
        }
        let replacement: Character = terminalWidth("\u{FFFD}") == 1 ? "\u{FFFD}" : "?"
        return TerminalGlyph(cell: Cell(character: replacement, style: cell.style, width: 1), blankAfter: expected == 2)
    }
}
