/// A widget: one line of text in one style, truncated with an ellipsis and aligned within its
/// area's first row; the rest of that row is filled with blanks in the same style.
public struct TextLine: Sendable, Hashable {
    /// The text; sanitize untrusted text first (`TextSanitizer`).
    public var text: String
    /// Style of the text and of the blanks that pad the row.
    public var style: Style
    /// Where the text sits when it is narrower than the row.
    public var alignment: TextAlignment
    /// Ends truncated text (`GlyphSet.ellipsis` for the locale).
    public var ellipsis: Character

    /// A line of text; left-aligned, plain, `…` by default.
    public init(_ text: String, style: Style = .plain, alignment: TextAlignment = .left, ellipsis: Character = "…") {
        self.text = text
        self.style = style
        self.alignment = alignment
        self.ellipsis = ellipsis
    }

    /// Draws into the first row of `area` (nothing if it is empty or off the buffer).
    public func render(into buffer: inout Buffer, area: Rect) {
        let row = area.row(0)
        guard !row.isEmpty else { return }
        buffer.fill(row, style: style)
        let fitted = TextTruncation.truncate(text, toWidth: row.width, ellipsis: ellipsis)
        let gap = max(0, row.width - DisplayWidth.of(fitted))
        let offset: Int
        switch alignment {
        case .left: offset = 0
        case .right: offset = gap
        case .center: offset = gap / 2
        }
        buffer.write(fitted, x: row.x + offset, y: row.y, style: style, maxWidth: row.width - offset)
    }
}
