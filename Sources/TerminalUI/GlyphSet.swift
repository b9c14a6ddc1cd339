/// The glyphs the widgets draw with: box-drawing and block characters for UTF-8 terminals,
/// plain ASCII otherwise. Every glyph is one column wide.
public struct GlyphSet: Sendable, Hashable {
    /// Box corners, clockwise from the top left.
    public var topLeft: Character
    public var topRight: Character
    public var bottomLeft: Character
    public var bottomRight: Character
    /// Top and bottom border.
    public var horizontal: Character
    /// Left and right border.
    public var vertical: Character
    /// A completely filled progress-bar cell.
    public var barFull: Character
    /// Partly filled cells: `barEighths[n - 1]` is filled n/8 from the left (n = 1…7). Empty
    /// when the set has no partial blocks; bars then fill whole cells only.
    public var barEighths: [Character]
    /// An unfilled progress-bar cell.
    public var barEmpty: Character
    /// Marks truncated text; one column wide in both sets so layouts match.
    public var ellipsis: Character

    /// A custom set; every glyph should be one column wide or layouts shift.
    public init(
        topLeft: Character, topRight: Character, bottomLeft: Character, bottomRight: Character,
        horizontal: Character, vertical: Character,
        barFull: Character, barEighths: [Character], barEmpty: Character, ellipsis: Character
    ) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
        self.horizontal = horizontal
        self.vertical = vertical
        self.barFull = barFull
        self.barEighths = barEighths
        self.barEmpty = barEmpty
        self.ellipsis = ellipsis
    }

    /// `┌─┐│└┘`, `█` with `▏▎▍▌▋▊▉`, blank empty cells, `…`.
    public static let unicode = GlyphSet(
        topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│",
        barFull: "█", barEighths: ["▏", "▎", "▍", "▌", "▋", "▊", "▉"], barEmpty: " ", ellipsis: "…"
    )

    /// `+-|`, `#` and `-` bars with whole-cell resolution, `~` as the ellipsis.
    public static let ascii = GlyphSet(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|",
        barFull: "#", barEighths: [], barEmpty: "-", ellipsis: "~"
    )
}
