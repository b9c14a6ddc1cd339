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

@Suite("Escape sequences of the navigation keys")
struct KeyEscapeSequencesTests {
    @Test(arguments: [
        ("\u{1B}[4~", Key.end), ("\u{1B}[1~", .home), ("\u{1B}[8~", .end), ("\u{1B}[7~", .home),
        ("\u{1B}[F", .end), ("\u{1B}[H", .home), ("\u{1B}OF", .end), ("\u{1B}OH", .home),
        ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[3~", .delete), ("\u{1B}OA", .up),
    ])
    func variants(sequence: String, key: Key) {
        #expect(KeyEscapeSequences.key(for: sequence) == key)
    }

    @Test("no sequence is listed twice, and none is a prefix of another")
    func unambiguous() {
        let sequences = KeyEscapeSequences.all.map(\.sequence)
        #expect(Set(sequences).count == sequences.count)
        for sequence in sequences {
            #expect(!sequences.contains { $0 != sequence && $0.hasPrefix(sequence) }, "\(sequence)")
        }
    }
}
