import Testing
import TerminalUI

@Suite("Text truncation, padding and TextLine")
struct TextTruncationTests {
    @Test(arguments: [
        ("hello", 5, "hello"),
        ("hello", 4, "hel…"),
        ("hello", 1, "…"),
        ("hello", 0, ""),
        ("漢字漢字", 8, "漢字漢字"),
        ("漢字漢字", 5, "漢字…"),
        ("漢字漢字", 4, "漢…"),
        ("漢字漢字", 2, "…"),
        ("ab🚀cd", 4, "ab…"),
        ("cafe\u{301}s", 4, "caf…"),
        ("cafe\u{301}s", 5, "cafe\u{301}s"),
    ])
    func truncate(text: String, width: Int, expected: String) {
        #expect(TextTruncation.truncate(text, toWidth: width) == expected)
    }

    @Test func asciiEllipsis() {
        #expect(TextTruncation.truncate("installing", toWidth: 6, ellipsis: "~") == "insta~")
    }

    @Test func fitPadsToExactlyTheWidth() {
        #expect(TextTruncation.fit("ab", toWidth: 5) == "ab   ")
        #expect(TextTruncation.fit("ab", toWidth: 5, alignment: .right) == "   ab")
        #expect(TextTruncation.fit("ab", toWidth: 5, alignment: .center) == " ab  ")
        #expect(TextTruncation.fit("漢字漢字", toWidth: 4) == "漢… ")
        #expect(TextTruncation.fit("abcdef", toWidth: 4, alignment: .right) == "abc…")
    }

    @Test func textLineFillsItsRowInItsStyle() {
        let style = Style(foreground: .yellow)
        var buffer = Buffer(width: 8, height: 2)
        TextLine("41%", style: style, alignment: .right).render(into: &buffer, area: Rect(x: 1, y: 0, width: 6, height: 2))
        TextLine("Unpacking libc6", style: style).render(into: &buffer, area: Rect(x: 0, y: 1, width: 8, height: 1))
        #expect(buffer.lines == ["    41% ", "Unpacki…"])
        #expect(buffer.styleMap([style: "y", .plain: "."]) == [".yyyyyy.", "yyyyyyyy"])
    }
}
