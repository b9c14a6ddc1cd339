import Testing
import TerminalUI

@Suite("Key: control codes")
struct KeyTests {
    @Test(arguments: [
        (0x09, Key.tab), (0x0D, .enter), (0x0A, .enter), (0x1B, .escape), (0x7F, .backspace), (0x08, .backspace),
        (0x03, .controlC), (0x01, .control("a")), (0x1A, .control("z")), (0x71, .character("q")),
        (0x4B, .character("K")), (0x6F22, .character("漢")),
    ] as [(UInt32, Key)])
    func mapsScalars(value: UInt32, expected: Key) {
        #expect(Key(scalar: Unicode.Scalar(value)!) == expected)
    }

    @Test func otherControlsAreNotKeys() {
        #expect(Key(scalar: Unicode.Scalar(0x00)) == nil)
        #expect(Key(scalar: Unicode.Scalar(0x1C)) == nil)
        #expect(Key(scalar: Unicode.Scalar(0x9B)) == nil)
    }
}
