import Testing
import TerminalUI

@Suite("BoxFrame: borders and titles")
struct BoxFrameTests {
    @Test func drawsABoxWithATitleAndReturnsTheInside() {
        var buffer = Buffer(width: 12, height: 4)
        let inner = BoxFrame(title: "Jobs").render(into: &buffer, area: buffer.area)
        #expect(inner == Rect(x: 1, y: 1, width: 10, height: 2))
        #expect(buffer.lines == [
            "┌ Jobs ────┐",
            "│          │",
            "│          │",
            "└──────────┘",
        ])
    }

    @Test func aLongTitleIsTruncatedWithAnEllipsis() {
        var buffer = Buffer(width: 12, height: 3)
        BoxFrame(title: "Security updates").render(into: &buffer, area: buffer.area)
        #expect(buffer.lines[0] == "┌ Securit… ┐")
        var wide = Buffer(width: 9, height: 2)
        BoxFrame(title: "漢字漢字").render(into: &wide, area: wide.area)
        #expect(wide.lines[0] == "┌ 漢字… ┐")
    }

    @Test func asciiFallbackAndStyles() {
        let border = Style(foreground: .brightBlack)
        let title = Style(foreground: .cyan, bold: true)
        var buffer = Buffer(width: 8, height: 3)
        BoxFrame(title: "Out", borderStyle: border, titleStyle: title, glyphs: .ascii).render(into: &buffer, area: buffer.area)
        #expect(buffer.lines == ["+ Out -+", "|      |", "+------+"])
        #expect(buffer.styleMap([border: "b", title: "t", .plain: "."]) == ["btttttbb", "b......b", "bbbbbbbb"])
    }

    @Test func tinyAreasGetNoTitleOrNothing() {
        var buffer = Buffer(width: 4, height: 2)
        BoxFrame(title: "Jobs").render(into: &buffer, area: buffer.area)
        #expect(buffer.lines == ["┌──┐", "└──┘"])
        var line = Buffer(width: 4, height: 1)
        #expect(BoxFrame(title: "x").render(into: &line, area: line.area).isEmpty)
        #expect(line.lines == ["    "])
    }

    @Test func fillStyleClearsTheInside() {
        var buffer = Buffer(width: 5, height: 3, filledWith: Cell(character: "x", style: .plain, width: 1))
        let fill = Style(background: .blue)
        BoxFrame(fillStyle: fill).render(into: &buffer, area: Rect(x: 0, y: 0, width: 4, height: 3))
        #expect(buffer.lines == ["┌──┐x", "│  │x", "└──┘x"])
        #expect(buffer.style(atX: 1, y: 1) == fill)
    }
}
