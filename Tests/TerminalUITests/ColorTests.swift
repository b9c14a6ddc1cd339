import Testing
import TerminalUI

@Suite("Color: parsing and approximation")
struct ColorTests {
    @Test(arguments: [
        ("default", Color.default), ("red", .red), ("bright-black", .brightBlack), ("Bright-White", .brightWhite),
        ("bright_cyan", .brightCyan), ("brightMagenta", .brightMagenta), ("0", .black), ("15", .brightWhite),
        ("16", .indexed(16)), ("255", .indexed(255)), ("#ff8800", .rgb(255, 136, 0)), ("#00A0fF", .rgb(0, 160, 255)),
    ])
    func parses(text: String, expected: Color) {
        #expect(Color(parsing: text) == expected)
    }

    @Test(arguments: ["", "256", "-1", "#fff", "#12345g", "bright", "bright--red", " red", "purple", "0x10", "1000"])
    func rejects(text: String) {
        #expect(Color(parsing: text) == nil)
    }

    @Test func descriptionRoundTrips() {
        for color in [Color.default, .brightBlack, .yellow, .indexed(208), .rgb(1, 2, 255)] {
            #expect(Color(parsing: color.description) == color)
        }
        #expect(Color.rgb(255, 136, 0).description == "#ff8800")
    }

    @Test func nearest256PrefersCubeOrGreyRamp() {
        #expect(XtermPalette.nearestIndex(red: 255, green: 0, blue: 0) == 196)
        #expect(XtermPalette.nearestIndex(red: 0, green: 0, blue: 0) == 16)
        #expect(XtermPalette.nearestIndex(red: 255, green: 255, blue: 255) == 231)
        #expect(XtermPalette.nearestIndex(red: 128, green: 128, blue: 128) == 244)
        #expect(XtermPalette.nearestIndex(red: 0x87, green: 0xAF, blue: 0xD7) == 110)
        #expect(XtermPalette.rgb(ofIndex: 110) == (0x87, 0xAF, 0xD7))
        #expect(XtermPalette.rgb(ofIndex: 232) == (8, 8, 8))
    }

    @Test func approximationForEachCapability() {
        let orange = Color.rgb(255, 135, 0)
        #expect(orange.approximated(for: .direct) == orange)
        #expect(orange.approximated(for: .indexed256) == .indexed(208))
        #expect(orange.approximated(for: .basic16) == .yellow)
        #expect(Color.indexed(196).approximated(for: .basic16) == .brightRed)
        #expect(Color.indexed(196).approximated(for: .basic8) == .red)
        #expect(Color.brightBlue.approximated(for: .basic8) == .blue)
        #expect(Color.brightBlue.approximated(for: .none) == .default)
        #expect(Color.default.approximated(for: .basic8) == .default)
    }

    @Test func styleApproximationKeepsBrightnessAsBoldOnEightColours() {
        let style = Style(foreground: .brightCyan, background: .brightBlack, underline: true)
        #expect(style.approximated(for: .basic8) == Style(foreground: .cyan, background: .black, bold: true, underline: true))
        #expect(style.approximated(for: .basic16) == style)
        #expect(style.approximated(for: .none) == Style(underline: true))
    }

    @Test func overlayTakesNonDefaultColoursAndUnitesAttributes() {
        let base = Style(foreground: .red, background: .blue, dim: true)
        #expect(base.overlaid(by: .plain) == base)
        #expect(base.overlaid(by: Style(background: .cyan, bold: true)) == Style(foreground: .red, background: .cyan, bold: true, dim: true))
    }
}
