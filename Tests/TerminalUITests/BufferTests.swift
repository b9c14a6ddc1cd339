import Testing
import TerminalUI

@Suite("Buffer: writes, clipping, wide graphemes")
struct BufferTests {
    @Test func newBufferIsBlank() {
        let buffer = Buffer(width: 3, height: 2)
        #expect(buffer.lines == ["   ", "   "])
        #expect(buffer.cells.count == 6)
    }

    @Test func writeReturnsColumnsAndKeepsTrailingBlanks() {
        var buffer = Buffer(width: 6, height: 1)
        #expect(buffer.write("ab", x: 1, y: 0) == 2)
        #expect(buffer.lines == [" ab   "])
    }

    @Test func writeClipsAtTheRightEdgeAndAtMaxWidth() {
        var buffer = Buffer(width: 5, height: 2)
        #expect(buffer.write("abcdefgh", x: 2, y: 0) == 3)
        #expect(buffer.write("abcdefgh", x: 0, y: 1, maxWidth: 2) == 2)
        #expect(buffer.lines == ["  abc", "ab   "])
    }

    @Test func writeOutsideTheBufferDoesNothing() {
        var buffer = Buffer(width: 3, height: 1)
        #expect(buffer.write("abc", x: 0, y: 1) == 0)
        #expect(buffer.write("abc", x: 0, y: -1) == 0)
        #expect(buffer.write("abc", x: 3, y: 0) == 0)
        #expect(buffer.lines == ["   "])
    }

    @Test func negativeXSkipsTheHiddenColumns() {
        var buffer = Buffer(width: 4, height: 2)
        buffer.write("abcdef", x: -2, y: 0)
        buffer.write("漢字", x: -1, y: 1)
        #expect(buffer.lines == ["cdef", " 字 "])
    }

    @Test func wideGraphemesTakeTwoCellsAndReadNaturally() {
        var buffer = Buffer(width: 6, height: 1)
        #expect(buffer.write("漢字", x: 0, y: 0) == 4)
        #expect(buffer.lines == ["漢字  "])
        #expect(buffer[0, 0]?.width == 2)
        #expect(buffer[1, 0]?.isContinuation == true)
    }

    @Test func aWideGraphemeThatDoesNotFitBecomesASpace() {
        var buffer = Buffer(width: 5, height: 2, filledWith: Cell(character: ".", style: .plain, width: 1))
        #expect(buffer.write("ab漢字", x: 0, y: 0) == 5)
        #expect(buffer.write("漢字", x: 0, y: 1, maxWidth: 3) == 3)
        #expect(buffer.lines == ["ab漢 ", "漢 .."])
        #expect(buffer[4, 0]?.isContinuation == false)
    }

    @Test func overwritingHalfAWideGraphemeBlanksTheOtherHalf() {
        var buffer = Buffer(width: 6, height: 1)
        buffer.write("漢字", x: 0, y: 0)
        buffer.write("x", x: 1, y: 0)
        #expect(buffer.lines == [" x字  "])
        buffer.write("y", x: 2, y: 0)
        #expect(buffer.lines == [" xy   "])
        #expect(buffer.cells.allSatisfy { !$0.isContinuation })
    }

    @Test func combiningMarksStayWithTheirBase() {
        var buffer = Buffer(width: 4, height: 1)
        #expect(buffer.write("e\u{301}t\u{301}", x: 0, y: 0) == 2)
        #expect(buffer.character(atX: 0, y: 0) == "e\u{301}")
        #expect(buffer.lines == ["e\u{301}t\u{301}  "])
    }

    @Test func controlCharactersNeverReachACell() {
        var buffer = Buffer(width: 5, height: 1)
        #expect(buffer.write("a\u{1B}[\r\n", x: 0, y: 0) == 4)
        #expect(buffer.lines == ["a\u{FFFD}[\u{FFFD} "])
    }

    @Test func zeroWidthGraphemesAreDropped() {
        var buffer = Buffer(width: 3, height: 1)
        #expect(buffer.write("\u{200B}ab", x: 0, y: 0) == 2)
        #expect(buffer.lines == ["ab "])
    }

    @Test func stylesCanBeInspected() {
        let red = Style(foreground: .red)
        var buffer = Buffer(width: 4, height: 1)
        buffer.write("ab", x: 1, y: 0, style: red)
        #expect(buffer.style(atX: 0, y: 0) == .plain)
        #expect(buffer.style(atX: 1, y: 0) == red)
        #expect(buffer.styleMap([.plain: ".", red: "r"]) == [".rr."])
    }

    @Test func fillAndOverlayStyle() {
        var buffer = Buffer(width: 4, height: 3)
        buffer.fill(Rect(x: 1, y: 1, width: 10, height: 1), with: "#", style: Style(foreground: .green))
        buffer.overlayStyle(Style(background: .blue, bold: true), in: Rect(x: 0, y: 1, width: 2, height: 1))
        #expect(buffer.lines == ["    ", " ###", "    "])
        #expect(buffer.style(atX: 1, y: 1) == Style(foreground: .green, background: .blue, bold: true))
        #expect(buffer.style(atX: 0, y: 1) == Style(background: .blue, bold: true))
        #expect(buffer.style(atX: 2, y: 1) == Style(foreground: .green))
    }

    @Test func setPlacesOneGraphemeAndClipsWideOnesAtTheEdge() {
        var buffer = Buffer(width: 3, height: 1)
        #expect(buffer.set("漢", x: 0, y: 0) == 2)
        #expect(buffer.set("字", x: 2, y: 0) == 1)
        #expect(buffer.lines == ["漢 "])
        buffer.set(Cell(character: "z", style: .plain, width: 1), x: 1, y: 0)
        #expect(buffer.lines == [" z "])
    }

    @Test func settingARawControlCellStoresAReplacementCharacter() {
        var buffer = Buffer(width: 3, height: 1)
        buffer.set(Cell(character: "\u{1B}", style: .plain, width: 1), x: 0, y: 0)
        buffer.set(Cell(character: "\u{9B}", style: .plain, width: 1), x: 1, y: 0)
        buffer.set(Cell.continuation(style: .plain), x: 2, y: 0)
        #expect(buffer.lines == ["\u{FFFD}\u{FFFD} "])
        #expect(!buffer.cells[2].isContinuation)
    }

    @Test func changedCellsAreReportedOnceAndContinuationsSkipped() {
        var old = Buffer(width: 4, height: 2)
        old.write("ab", x: 0, y: 0)
        var new = old
        new.write("漢", x: 1, y: 1)
        new.write("b", x: 0, y: 0, style: Style(bold: true))
        var changed: [String] = []
        new.forEachCell(changedFrom: old) { x, y, cell in changed.append("\(x),\(y):\(cell.character)") }
        #expect(changed == ["0,0:b", "1,1:漢"])
        var all = 0
        new.forEachCell(changedFrom: nil) { _, _, _ in all += 1 }
        #expect(all == 7)
        var resized = 0
        new.forEachCell(changedFrom: Buffer(width: 3, height: 2)) { _, _, _ in resized += 1 }
        #expect(resized == 7)
    }
}
