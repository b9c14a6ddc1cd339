import Testing
import TerminalUI

@Suite("TextSanitizer: child output made display-safe")
struct TextSanitizerTests {
    private let unicode = TextSanitizer()
    private let ascii = TextSanitizer(mode: .ascii)

    @Test(arguments: [
        ("plain text", "plain text"),
        ("\u{1B}[2J", "␛[2J"),
        ("\u{1B}[31mred\u{1B}[0m", "␛[31mred␛[0m"),
        ("\u{1B}]0;evil title\u{7}", "␛]0;evil title␇"),
        ("\u{1B}]2;evil title\u{1B}\\", "␛]2;evil title␛\\"),
        ("\u{1B}]52;c;aGVsbG8=\u{7}", "␛]52;c;aGVsbG8=␇"),
        ("\u{1B}]8;;http://x.example\u{1B}\\link\u{1B}]8;;\u{1B}\\", "␛]8;;http://x.example␛\\link␛]8;;␛\\"),
        ("\u{0}\u{8}\r\n\u{7F}", "␀␈␍␊␡"),
        ("\u{9B}2J", "⟨U+009B⟩2J"),
        ("\u{85}\u{9D}0;t\u{9C}", "⟨U+0085⟩⟨U+009D⟩0;t⟨U+009C⟩"),
        ("abc\u{202E}fed", "abc⟨U+202E⟩fed"),
        ("\u{2066}x\u{2069}\u{200F}", "⟨U+2066⟩x⟨U+2069⟩⟨U+200F⟩"),
        ("a\u{200B}b\u{FEFF}\u{2028}", "a⟨U+200B⟩b⟨U+FEFF⟩⟨U+2028⟩"),
        ("tag\u{E0041}", "tag⟨U+E0041⟩"),
        ("bad \u{FFFD} byte", "bad \u{FFFD} byte"),
        ("漢字 e\u{301} 🚀 👨\u{200D}👩\u{200D}👧 🇩🇪 ❤\u{FE0F}", "漢字 e\u{301} 🚀 👨\u{200D}👩\u{200D}👧 🇩🇪 ❤\u{FE0F}"),
    ])
    func unicodeMode(input: String, expected: String) {
        #expect(unicode.sanitize(input) == expected)
    }

    @Test func invalidUTF8ShowsAsReplacementCharacter() {
        let decoded = String(decoding: [0x61, 0xFF, 0xC3, 0x62] as [UInt8], as: UTF8.self)
        #expect(unicode.sanitize(decoded) == "a\u{FFFD}\u{FFFD}b")
    }

    @Test func tabsExpandToTheNextMultipleOfEightColumns() {
        #expect(unicode.sanitize("\tx") == "        x")
        #expect(unicode.sanitize("abc\tx") == "abc     x")
        #expect(unicode.sanitize("12345678\tx") == "12345678        x")
        #expect(unicode.sanitize("漢字\tx") == "漢字    x")
        #expect(unicode.sanitize("\u{1B}\tx") == "␛       x")
        #expect(TextSanitizer(tabWidth: 4).sanitize("ab\tx") == "ab  x")
    }

    @Test func nothingInTheResultCanActOnATerminal() {
        let hostile = (0..<0xA0).map { String(Unicode.Scalar($0)!) }.joined() + "\u{202E}\u{2066}\u{200E}"
        let result = unicode.sanitize(hostile)
        for scalar in result.unicodeScalars {
            #expect(scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80..<0xA0).contains(scalar.value))
            #expect(!scalar.properties.isBidiControl)
        }
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("\u{1B}[2J\u{7}\u{7F}", "^[[2J^G^?"),
        ("\u{9B}x\u{202E}", "<U+009B>x<U+202E>"),
        ("cafe\u{301} café", "cafe caf?"),
        ("漢字!", "??!"),
        ("🚀 👨\u{200D}👩\u{200D}👧 🇩🇪 ❤\u{FE0F}", "? ? ? ?"),
        ("\u{FFFD}", "?"),
        ("a\tb", "a       b"),
    ])
    func asciiMode(input: String, expected: String) {
        let result = ascii.sanitize(input)
        #expect(result == expected)
        #expect(result.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
    }

    @Test func maxWidthStopsJustPastTheLimit() {
        let long = String(repeating: "abcdefghij", count: 10)
        #expect(unicode.sanitize(long, maxWidth: 5) == "abcdef")
        #expect(unicode.sanitize("abc", maxWidth: 5) == "abc")
        #expect(unicode.sanitize("漢字漢字漢字", maxWidth: 5) == "漢字漢")
        #expect(unicode.sanitize("\u{1B}[2J\u{1B}[2J", maxWidth: 3) == "␛[2J")
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(unicode.sanitize(family + family + family, maxWidth: 3) == family + "👨")
        let truncated = TextTruncation.truncate(unicode.sanitize(long, maxWidth: 5), toWidth: 5)
        #expect(truncated == "abcd…")
    }

    @Test func aHundredKilobyteLine() {
        let chunk = "progress 42% \u{1B}[1m漢字\u{1B}[0m\t"
        let line = String(repeating: chunk, count: 100_000 / chunk.utf8.count + 1)
        #expect(line.utf8.count >= 100_000)
        let result = unicode.sanitize(line)
        #expect(!result.unicodeScalars.contains { $0.value == 0x1B })
        #expect(result.hasPrefix("progress 42% ␛[1m漢字␛[0m       progress"))
        let prefix = unicode.sanitize(line, maxWidth: 80)
        #expect(DisplayWidth.of(prefix) > 80)
        #expect(DisplayWidth.of(prefix) < 90)
        #expect(result.hasPrefix(prefix))
    }
}
