import Testing
import TerminalUI

@Suite("ProgressBar: eighths, ASCII, indeterminate")
struct ProgressBarTests {
    private let done = Style(foreground: .green)
    private let todo = Style(foreground: .brightBlack, background: .black)

    private func draw(_ mode: ProgressBar.Mode, width: Int = 10, glyphs: GlyphSet = .unicode) -> Buffer {
        var buffer = Buffer(width: width, height: 1)
        ProgressBar(mode, doneStyle: done, todoStyle: todo, glyphs: glyphs).render(into: &buffer, area: buffer.area)
        return buffer
    }

    @Test(arguments: [
        (0.0, "          "),
        (0.0125, "▏         "),
        (0.125, "█▎        "),
        (0.5, "█████     "),
        (0.99, "█████████▉"),
        (1.0, "██████████"),
        (1.7, "██████████"),
        (-1, "          "),
        (Double.nan, "          "),
    ])
    func unicodeFractions(fraction: Double, expected: String) {
        #expect(draw(.fraction(fraction)).lines == [expected])
    }

    @Test func partialCellShowsDoneColourOverTodoBackground() {
        let buffer = draw(.fraction(0.125))
        #expect(buffer.style(atX: 0, y: 0) == done)
        #expect(buffer.style(atX: 1, y: 0) == Style(foreground: .green, background: .black))
        #expect(buffer.style(atX: 2, y: 0) == todo)
    }

    @Test func oneEighthOfASingleCell() {
        #expect(draw(.fraction(1.0 / 8), width: 1).lines == ["▏"])
    }

    @Test(arguments: [(0.0, "----------"), (0.125, "#---------"), (0.5, "#####-----"), (0.99, "#########-"), (1.0, "##########")])
    func asciiFallback(fraction: Double, expected: String) {
        #expect(draw(.fraction(fraction), glyphs: .ascii).lines == [expected])
    }

    @Test func indeterminateBlockMovesAndBounces() {
        let frames = (0..<16).map { draw(.indeterminate(phase: $0), width: 6, glyphs: .ascii).lines[0] }
        #expect(Array(frames.prefix(7)) == ["###---", "-###--", "--###-", "---###", "--###-", "-###--", "###---"])
        #expect(frames[6...] .elementsEqual(frames[..<10]))
        #expect(draw(.indeterminate(phase: -1), width: 6, glyphs: .ascii).lines == ["-###--"])
        #expect(draw(.indeterminate(phase: 5), width: 2).lines == ["██"])
    }

    @Test func neverAFrozenZeroWhenIndeterminate() {
        for phase in 0..<20 {
            let line = draw(.indeterminate(phase: phase)).lines[0]
            #expect(line.filter { $0 == "█" }.count == 3)
        }
    }
}
