/// A widget: a scrolling list that draws only its visible rows, through a closure.
///
/// The list keeps no state: the caller stores the offset `render` returns and passes it back
/// as `offset` next time, so the view scrolls only as far as needed to keep the selection
/// visible.
public struct ListView: Sendable, Hashable {
    /// How many items the list has (negative counts as none).
    public var itemCount: Int
    /// The selected item, or `nil` for none. Out-of-range values are clamped.
    public var selectedIndex: Int?
    /// The first visible item of the previous frame.
    public var offset: Int
    /// Laid over the selected row after it is drawn (see `Buffer.overlayStyle`).
    public var selectionStyle: Style

    /// A list; the default selection style is reverse video, visible on every terminal.
    public init(itemCount: Int, selectedIndex: Int?, offset: Int = 0, selectionStyle: Style = Style(reverse: true)) {
        self.itemCount = itemCount
        self.selectedIndex = selectedIndex
        self.offset = offset
        self.selectionStyle = selectionStyle
    }

    /// The first visible item: `previousOffset`, moved just enough to show `selected`, and
    /// never so far down that rows at the bottom stay empty while items above are hidden.
    /// 0 when there are no items or no rows.
    public static func offset(itemCount: Int, selected: Int?, visibleRows: Int, previousOffset: Int) -> Int {
        guard itemCount > 0, visibleRows > 0 else { return 0 }
        var offset = previousOffset
        if let selected {
            let clamped = min(max(selected, 0), itemCount - 1)
            if clamped < offset {
                offset = clamped
            } else if clamped >= offset + visibleRows {
                offset = clamped - visibleRows + 1
            }
        }
        return min(max(offset, 0), max(0, itemCount - visibleRows))
    }

    /// Draws the visible items: for each, `drawRow(&buffer, index, rowRect, isSelected)` draws
    /// the row (one cell high, the area's width), then the selection style is laid over the
    /// selected row. Returns the offset used, to pass back as `offset` next frame.
    @discardableResult
    public func render(
        into buffer: inout Buffer,
        area: Rect,
        drawRow: (_ buffer: inout Buffer, _ index: Int, _ row: Rect, _ isSelected: Bool) -> Void
    ) -> Int {
        let first = ListView.offset(itemCount: itemCount, selected: selectedIndex, visibleRows: area.height, previousOffset: offset)
        guard !area.isEmpty, itemCount > 0 else { return first }
        let selected = selectedIndex.map { min(max($0, 0), itemCount - 1) }
        let last = min(itemCount, first + area.height)
        for index in first..<last {
            let row = area.row(index - first)
            let isSelected = index == selected
            drawRow(&buffer, index, row, isSelected)
            if isSelected {
                buffer.overlayStyle(selectionStyle, in: row)
            }
        }
        return first
    }
}
