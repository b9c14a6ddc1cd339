import Testing
import TextBasics

/// The three trims installtop uses, as Foundation's character sets trimmed.
@Suite("Trimming: whitespace, spaces, newlines")
struct TrimmingTests {
    @Test("each trims its own characters at both ends and keeps the inside")
    func trims() {
        let text = " \t\n a b \t\r\n "
        #expect(text.trimmingWhitespace == "a b")
        #expect(text.trimmingSpaces == "\n a b \t\r\n")
        #expect("\n\r\na b\n".trimmingNewlines == "a b")
        #expect("   ".trimmingWhitespace == "")
        #expect("".trimmingSpaces == "")
        #expect("\u{00A0}x\u{2003}".trimmingSpaces == "x")
        #expect("x".padded(to: 3) == "x  " && "xyz".padded(to: 2) == "xyz")
    }
}
