import Testing
import TerminalUI

@Suite("TerminalGlyph: agreeing with the terminal's wcwidth")
struct TerminalGlyphTests {
    /// Like glibc's wcwidth in a UTF-8 locale: regional indicators and U+2764 are 1.
    private func glibcLike(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x200D, 0xFE0F, 0x301, 0x1F3FB...0x1F3FF: return 0
        case 0x1F1E6...0x1F1FF, 0x2764: return 1
        default: return DisplayWidth.of(scalar)
        }
    }

    private func asciiLocale(_ scalar: Unicode.Scalar) -> Int {
        scalar.isASCII ? 1 : -1
    }

    private func fit(_ character: Character, _ width: (Unicode.Scalar) -> Int) -> TerminalGlyph {
        TerminalGlyph.fit(Cell(character: character, style: .plain, width: UInt8(DisplayWidth.of(character))), maxScalars: 5, terminalWidth: width)
    }

    @Test func agreeingGlyphsPassWithTheirMarks() {
        let accent = fit("e\u{301}", glibcLike)
        #expect(accent.cell.character == "e\u{301}")
        #expect(!accent.blankAfter)
        #expect(fit("漢", glibcLike).cell.character == "漢")
        #expect(fit("👍🏽", glibcLike).cell.character == "👍🏽")
    }

    @Test func zwjSequencesKeepTheirFirstEmoji() {
        let family = fit("👨\u{200D}👩\u{200D}👧", glibcLike)
        #expect(family.cell.character == "👨")
        #expect(family.cell.width == 2)
        #expect(!family.blankAfter)
    }

    @Test func narrowerOnTheTerminalGetsABlankAfter() {
        let flag = fit("🇩🇪", glibcLike)
        #expect(flag.cell.character == "🇩")
        #expect(flag.blankAfter)
        let heart = fit("❤\u{FE0F}", glibcLike)
        #expect(heart.cell.character == "❤")
        #expect(heart.blankAfter)
    }

    @Test func unprintableInTheLocaleBecomesAQuestionMark() {
        let wide = fit("漢", asciiLocale)
        #expect(wide.cell.character == "?")
        #expect(wide.blankAfter)
        #expect(fit("é", asciiLocale).cell.character == "?")
        #expect(!fit("é", asciiLocale).blankAfter)
    }

    @Test func wideOnTheTerminalButNarrowInTheBufferIsReplaced() {
        let glyph = TerminalGlyph.fit(Cell(character: "x", style: .plain, width: 1), maxScalars: 5) { _ in 2 }
        #expect(glyph.cell.character == "?")
        #expect(!glyph.blankAfter)
    }

    @Test func scalarsAreCappedAtTheTerminalLimit() {
        let glyph = fit("a\u{301}\u{301}\u{301}\u{301}\u{301}", glibcLike)
        #expect(glyph.cell.scalarCount == 5)
    }
}
