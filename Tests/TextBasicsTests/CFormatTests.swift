import Testing
import TextBasics

/// `CFormat` writes figures as C's printf does, in place of `String(format:)`.
@Suite("CFormat: printf's figures without Foundation")
struct CFormatTests {
    @Test("decimals round as printf rounds, ties of exact binary values to even", arguments: [
        (0.0, 1, "0.0"), (1.25, 1, "1.2"), (1.35, 1, "1.4"), (12.0, 1, "12.0"), (0.125, 2, "0.12"), (2.675, 2, "2.67"),
        (-0.04, 1, "-0.0"), (0.8 / 3, 3, "0.267"), (1e15, 1, "1000000000000000.0"),
    ])
    func decimals(value: Double, places: Int, expected: String) {
        #expect(CFormat.decimals(value, places: places) == expected)
    }

    @Test("twoDigits pads with a zero, never cuts")
    func twoDigits() {
        #expect(CFormat.twoDigits(0) == "00")
        #expect(CFormat.twoDigits(7) == "07")
        #expect(CFormat.twoDigits(42) == "42")
        #expect(CFormat.twoDigits(123) == "123")
        #expect(CFormat.twoDigits(-3) == "-3")
    }

    @Test("string takes C's conversions with matching arguments")
    func string() {
        #expect(CFormat.string("%02d:%02d:%02d", Int32(9), Int32(5), Int32(30)) == "09:05:30")
        #expect(CFormat.string("%ld and %.2f", 12, 0.5) == "12 and 0.50")
    }
}
