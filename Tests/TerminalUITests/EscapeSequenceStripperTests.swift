import Testing
import TerminalUI

@Suite("EscapeSequenceStripper")
struct EscapeSequenceStripperTests {
    @Test("CSI, OSC and two-character sequences go; the text they surround stays", arguments: [
        ("\u{1B}[1;31mred\u{1B}[0m plain", "red plain"),
        ("\u{1B}[?2004hroot@h1:~# ", "root@h1:~# "),
        ("\u{1B}]0;root@h1: ~\u{07}$ ls", "$ ls"),
        ("\u{1B}]8;;https://example.invalid\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
        ("a\u{1B}Mb\u{1B}Dc\u{1B}_d", "abcd"),
        ("\u{1B}[2 qcursor", "cursor"),
    ])
    func sequences(input: String, expected: String) {
        #expect(EscapeSequenceStripper.stripping(input) == expected)
    }

    @Test("sequences cut short: a CSI without its final byte loses only ESC [; an OSC cut by an ESC or the end loses its text", arguments: [
        ("\u{1B}[12", "12"),
        ("\u{1B}[12\u{1B}[0mx", "12x"),
        ("\u{1B}]title without end", ""),
        ("\u{1B}]title\u{1B}[1mbold", "bold"),
    ])
    func cutShort(input: String, expected: String) {
        #expect(EscapeSequenceStripper.stripping(input) == expected)
    }

    @Test("a lone ESC, an ESC before a character that starts no sequence, and other controls stay")
    func controlsStay() {
        #expect(EscapeSequenceStripper.stripping("end\u{1B}") == "end\u{1B}")
        #expect(EscapeSequenceStripper.stripping("\u{1B}abc") == "\u{1B}abc")
        #expect(EscapeSequenceStripper.stripping("\u{1B}=keypad\u{1B}>") == "\u{1B}=keypad\u{1B}>")
        #expect(EscapeSequenceStripper.stripping("a\tb\rc\u{07}") == "a\tb\rc\u{07}")
        #expect(EscapeSequenceStripper.stripping("naïve ✓ 🏴") == "naïve ✓ 🏴")
    }
}
