/// A terminal colour as themes name it; the terminal adapter turns it into whatever the
/// terminal can show (see `approximated(for:)`).
public enum Color: Sendable, Hashable {
    /// The terminal's own foreground or background colour.
    case `default`
    /// The 8 ANSI colours, palette indexes 0–7.
    case black, red, green, yellow, blue, magenta, cyan, white
    /// Their bright variants, palette indexes 8–15 (`bright-black` … in themes).
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
    /// One of the xterm 256-colour palette entries. 0–15 are the same colours as the named cases.
    case indexed(UInt8)
    /// A direct ("true") colour.
    case rgb(UInt8, UInt8, UInt8)

    // MARK: - Named colours

    /// The 16 named colours in palette order: `named[n]` is palette index `n`.
    public static let named: [Color] = [
        .black, .red, .green, .yellow, .blue, .magenta, .cyan, .white,
        .brightBlack, .brightRed, .brightGreen, .brightYellow, .brightBlue, .brightMagenta, .brightCyan, .brightWhite,
    ]

    /// The theme spelling of the named colours, in palette order (`bright-black` …).
    public static let names: [String] = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "bright-black", "bright-red", "bright-green", "bright-yellow",
        "bright-blue", "bright-magenta", "bright-cyan", "bright-white",
    ]

    /// The palette index 0–255 of a named or indexed colour; `nil` for `.default` and `.rgb`.
    public var paletteIndex: UInt8? {
        switch self {
        case .default, .rgb: return nil
        case .indexed(let index): return index
        case .black: return 0
        case .red: return 1
        case .green: return 2
        case .yellow: return 3
        case .blue: return 4
        case .magenta: return 5
        case .cyan: return 6
        case .white: return 7
        case .brightBlack: return 8
        case .brightRed: return 9
        case .brightGreen: return 10
        case .brightYellow: return 11
        case .brightBlue: return 12
        case .brightMagenta: return 13
        case .brightCyan: return 14
        case .brightWhite: return 15
        }
    }

    // MARK: - Parsing

    /// Parses a theme colour: `default`, one of the 16 names (`red`, `bright-black`; case does not
    /// matter, and `bright_black` or `brightBlack` are accepted too), a palette index `0`–`255`
    /// (0–15 become the named cases), or `#rrggbb`.
    ///
    /// Returns `nil` for anything else, including `256`, `-1`, `#fff` and surrounding blanks.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if lowered == "default" {
            self = .default
            return
        }
        let dashed = String(lowered.map { $0 == "_" ? "-" : $0 })
        if let position = Color.names.firstIndex(where: { $0 == dashed || $0.filter { $0 != "-" } == lowered }) {
            self = Color.named[position]
            return
        }
        if lowered.hasPrefix("#") {
            let hex = lowered.utf8.dropFirst()
            guard hex.count == 6, hex.allSatisfy({ Color.hexValue($0) != nil }) else { return nil }
            let digits = hex.map { Color.hexValue($0)! }
            self = .rgb(digits[0] << 4 | digits[1], digits[2] << 4 | digits[3], digits[4] << 4 | digits[5])
            return
        }
        guard !lowered.isEmpty, lowered.utf8.count <= 3, lowered.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = UInt8(lowered)
        else { return nil }
        self = Color(paletteIndex: value)
    }

    /// The named case for 0–15, `.indexed` above.
    public init(paletteIndex: UInt8) {
        self = paletteIndex < 16 ? Color.named[Int(paletteIndex)] : .indexed(paletteIndex)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    // MARK: - Approximation

    /// The closest colour the terminal can show.
    ///
    /// - `.direct`: unchanged.
    /// - `.indexed256`: `.rgb` becomes the nearest entry of the 6×6×6 cube or grey ramp (16–255).
    /// - `.basic16`: additionally, indexes 16–255 become the nearest of the 16 named colours.
    /// - `.basic8`: additionally, bright colours become their normal counterparts and anything
    ///   else becomes the nearest of the first 8 (a caller may add bold to keep brightness; see
    ///   `Style.approximated(for:)`).
    /// - `.none`: everything becomes `.default`.
    public func approximated(for capability: ColorCapability) -> Color {
        switch (capability, self) {
        case (_, .default), (.direct, _):
            return self
        case (.none, _):
            return .default
        case (.indexed256, .rgb(let red, let green, let blue)):
            return Color(paletteIndex: XtermPalette.nearestIndex(red: red, green: green, blue: blue))
        case (.indexed256, _):
            return self
        case (.basic16, _), (.basic8, _):
            let limit = capability == .basic16 ? 16 : 8
            if let index = paletteIndex, index < 16 {
                return Color.named[Int(index) % limit]
            }
            let (red, green, blue) = rgbComponents
            return Color.named[XtermPalette.nearestBasicIndex(red: red, green: green, blue: blue, count: limit)]
        }
    }

    /// The colour's red, green and blue as xterm shows its palette; `.default` reads as black.
    public var rgbComponents: (UInt8, UInt8, UInt8) {
        switch self {
        case .rgb(let red, let green, let blue): return (red, green, blue)
        case .default: return (0, 0, 0)
        default: return XtermPalette.rgb(ofIndex: paletteIndex!)
        }
    }
}

// MARK: - Compact code

extension Color {
    /// The colour as one integer, so styles compare and hash as plain integers: the kind in the
    /// top byte (0 default, 1 named, 2 indexed, 3 RGB), the index or 0xRRGGBB below.
    var code: UInt32 {
        switch self {
        case .default: return 0
        case .indexed(let index): return 2 << 24 | UInt32(index)
        case .rgb(let red, let green, let blue): return 3 << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
        default: return 1 << 24 | UInt32(paletteIndex!)
        }
    }

    /// The colour whose `code` this is.
    init(code: UInt32) {
        let payload = code & 0xFF_FFFF
        switch code >> 24 {
        case 1: self = Color.named[Int(payload & 0xF)]
        case 2: self = .indexed(UInt8(payload & 0xFF))
        case 3: self = .rgb(UInt8(payload >> 16), UInt8(payload >> 8 & 0xFF), UInt8(payload & 0xFF))
        default: self = .default
        }
    }
}

// MARK: - CustomStringConvertible

extension Color: CustomStringConvertible {
    /// The theme spelling, which `init(parsing:)` reads back: `default`, `bright-black`, `208`,
    /// `#ff8800`.
    public var description: String {
        switch self {
        case .default: return "default"
        case .indexed(let index): return String(index)
        case .rgb(let red, let green, let blue):
            let hex = [red, green, blue].map { byte -> String in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }
            return "#" + hex.joined()
        default: return Color.names[Int(paletteIndex!)]
        }
    }
}
