/// A widget: one line of text in one style, truncated with an ellipsis and aligned within its
/// area's first row; the rest of that row is filled with blanks in the same style.
public struct TextLine: Sendable, Hashable {
    public var text: String
    public var style: Style
    public var alignment: TextAlignment
    public var ellipsis: Character

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
