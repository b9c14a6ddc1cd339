import Testing
import TerminalUI

@Suite("Lines redrawn with carriage returns, as a terminal leaves them")
struct CarriageReturnRedrawTests {
    @Test(arguments: [
        // dpkg's database progress: every redraw is longer, the last one wins.
        ("(Reading database ... \r(Reading database ... 5%\r(Reading database ... 100%\r(Reading database ... 6071 files and directories currently installed.)",
         "(Reading database ... 6071 files and directories currently installed.)"),
        // A shorter redraw leaves the end of the longer one, as on a terminal.
        ("Progress: 100%\rDone", "Doneress: 100%"),
        // A CR at the end, or CR LF's, moves nothing.
        ("Setting up lab-base (1.0) ...\r", "Setting up lab-base (1.0) ..."),
        ("plain line", "plain line"),
        ("", ""),
        // Writing over half of a wide character blanks its other half.
        ("漢字\rab", "ab字"),
        ("漢字\ra", "a 字"),
        ("ab\r漢", "漢"),
        ("abc\r\u{301}", "\u{301}bc"),
    ])
    func redraw(line: String, shown: String) {
        #expect(CarriageReturnRedraw.apply(line) == shown)
    }

    @Test("a line without a carriage return comes back unchanged, escapes and all")
    func untouchedWithoutCR() {
        let line = "\u{1B}[2J\tcolumns\u{7}"
        #expect(CarriageReturnRedraw.apply(line) == line)
    }
}
