/// How many colours a terminal can show, from fewest to most.
///
/// The terminal adapter reports it; the app decides about `NO_COLOR` (which should pick a theme
/// without colours rather than lie about the terminal).
public enum ColorCapability: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Monochrome: only attributes (bold, reverse …) are available.
    case none
    /// The 8 ANSI colours.
    case basic8
    /// The 8 ANSI colours and their bright variants.
    case basic16
    /// The xterm 256-colour palette.
    case indexed256
    /// 24-bit colour.
    case direct

    /// Fewer colours first: `.none < .basic8 < … < .direct`.
    public static func < (lhs: ColorCapability, rhs: ColorCapability) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
