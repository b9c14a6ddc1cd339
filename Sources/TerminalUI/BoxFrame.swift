/// A widget: a border around an area with an optional title in the top border, like
/// `┌ Jobs ─────┐`.
public struct BoxFrame: Sendable, Hashable {
    /// Shown as ` title ` after the top-left corner; truncated with the glyph set's ellipsis
    /// when the box is narrow, left out when fewer than 5 columns wide.
    public var title: String?
    /// Style of the corners and lines.
    public var borderStyle: Style
    /// Style of the title and the blank on either side of it.
    public var titleStyle: Style
    /// Box-drawing (`.unicode`) or `+-|` (`.ascii`) characters, and the title's ellipsis.
    public var glyphs: GlyphSet
    /// When set, the inside is cleared with blanks in this style (for overlays drawn over other
    /// content); when `nil` the inside is left as it is.
    public var fillStyle: Style?

    /// A frame; every part is optional and the defaults draw a plain Unicode box.
    public init(
        title: String? = nil,
        borderStyle: Style = .plain,
        titleStyle: Style = .plain,
        glyphs: GlyphSet = .unicode,
        fillStyle: Style? = nil
    ) {
        self.title = title
        self.borderStyle = borderStyle
        self.titleStyle = titleStyle
        self.glyphs = glyphs
        self.fillStyle = fillStyle
    }

    /// Draws the frame on the edge cells of `area` and returns the inside. An area narrower or
    /// lower than 2 cells gets nothing drawn and an empty inside.
    @discardableResult
    public func render(into buffer: inout Buffer, area: Rect) -> Rect {
        guard area.width >= 2, area.height >= 2 else { return Rect(x: area.x, y: area.y, width: 0, height: 0) }
        let inner = area.inset(by: 1)
        if let fillStyle {
            buffer.fill(inner, style: fillStyle)
        }
        let top = area.y
        let bottom = area.maxY - 1
        let right = area.maxX - 1
        buffer.fill(Rect(x: area.x + 1, y: top, width: area.width - 2, height: 1), with: glyphs.horizontal, style: borderStyle)
        buffer.fill(Rect(x: area.x + 1, y: bottom, width: area.width - 2, height: 1), with: glyphs.horizontal, style: borderStyle)
        buffer.fill(Rect(x: area.x, y: top + 1, width: 1, height: area.height - 2), with: glyphs.vertical, style: borderStyle)
        buffer.fill(Rect(x: right, y: top + 1, width: 1, height: area.height - 2), with: glyphs.vertical, style: borderStyle)
        buffer.set(glyphs.topLeft, x: area.x, y: top, style: borderStyle)
        buffer.set(glyphs.topRight, x: right, y: top, style: borderStyle)
        buffer.set(glyphs.bottomLeft, x: area.x, y: bottom, style: borderStyle)
        buffer.set(glyphs.bottomRight, x: right, y: bottom, style: borderStyle)
        if let title, !title.isEmpty, area.width >= 5 {
            let text = TextTruncation.truncate(title, toWidth: area.width - 4, ellipsis: glyphs.ellipsis)
            buffer.write(" " + text + " ", x: area.x + 1, y: top, style: titleStyle, maxWidth: area.width - 2)
        }
        return inner
    }
}
