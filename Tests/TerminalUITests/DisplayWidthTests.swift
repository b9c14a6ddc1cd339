import Testing
import TerminalUI

@Suite("DisplayWidth: cells per grapheme")
struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), ("~", 1), (" ", 1),
        ("漢", 2), ("字", 2), ("Ａ", 2), ("한", 2), ("ｶ", 1),
        ("🚀", 2), ("✅", 2), ("⌚", 2),
        ("👨\u{200D}👩\u{200D}👧", 2), ("👍🏽", 2), ("🇩🇪", 2), ("❤\u{FE0F}", 2), ("#\u{FE0F}\u{20E3}", 2),
        ("e\u{301}", 1), ("\u{301}", 0), ("\u{200B}", 0), ("\u{7}", 0), ("\u{9B}", 0),
        ("é", 1), ("─", 1), ("…", 1), ("␛", 1), ("❤", 1),
    ] as [(Character, Int)])
    func graphemeWidth(character: Character, expected: Int) {
        #expect(DisplayWidth.of(character) == expected, "\(character.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func stringWidthSumsGraphemes() {
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("hello") == 5)
        #expect(DisplayWidth.of("漢字ok") == 6)
        #expect(DisplayWidth.of("cafe\u{301} 🚀") == 7)
        #expect(DisplayWidth.of("a\tb") == 2)
    }

    @Test func scalarWidthsAtTheEdgesOfTheTables() {
        #expect(DisplayWidth.of(Unicode.Scalar(0x10FF)!) == 1)
        #expect(DisplayWidth.of(Unicode.Scalar(0x1100)!) == 2)
        #expect(DisplayWidth.of(Unicode.Scalar(0x1160)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x303E)!) == 2)
        #expect(DisplayWidth.of(Unicode.Scalar(0x303F)!) == 1)
        #expect(DisplayWidth.of(Unicode.Scalar(0x3000)!) == 2)
        #expect(DisplayWidth.of(Unicode.Scalar(0x2FFFD)!) == 2)
        #expect(DisplayWidth.of(Unicode.Scalar(0x40000)!) == 1)
        #expect(DisplayWidth.of(Unicode.Scalar(0xAD)!) == 0)
    }

    @Test func everyEmojiWithEmojiPresentationIsWide() {
        for value in UInt32(0xA0)...0x1FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isEmojiPresentation else { continue }
            #expect(DisplayWidth.of(scalar) == 2, "U+\(String(value, radix: 16))")
        }
    }

    @Test func marksAndFormatCharactersTakeNoColumn() {
        for value in UInt32(0x300)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format:
                #expect(DisplayWidth.of(scalar) == 0, "U+\(String(value, radix: 16))")
            default:
                continue
            }
        }
    }
}
