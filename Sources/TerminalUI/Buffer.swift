/// A width × height grid of cells that widgets draw into and a terminal adapter shows.
///
/// Coordinates are zero-based, `x` to the right, `y` down. Everything outside the grid is
/// silently clipped. The buffer keeps one invariant: a continuation cell always follows a
/// double-width grapheme; overwriting either half of a wide grapheme blanks the other half.
public struct Buffer: Sendable, Hashable {
    /// Columns (never negative).
    public let width: Int
    /// Rows (never negative).
    public let height: Int
    /// Row-major: cell (x, y) is `cells[y * width + x]`.
    public private(set) var cells: [Cell]

    /// A buffer filled with `cell` (blank by default). Negative sizes count as 0.
    public init(width: Int, height: Int, filledWith cell: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: cell.width == 2 ? Cell(style: cell.style) : cell, count: self.width * self.height)
    }

    /// The whole buffer as a rectangle at (0, 0).
    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    // MARK: - Reading

    /// The cell at (x, y), or `nil` outside the buffer.
    public subscript(x: Int, y: Int) -> Cell? {
        contains(x: x, y: y) ? cells[y * width + x] : nil
    }

    /// The style of the cell at (x, y); `.plain` outside the buffer.
    public func style(atX x: Int, y: Int) -> Style {
        self[x, y]?.style ?? .plain
    }

    /// The grapheme at (x, y); a space for blank and continuation cells and outside the buffer.
    public func character(atX x: Int, y: Int) -> Character {
        self[x, y]?.character ?? " "
    }

    /// One string per row with trailing blanks kept; continuation cells are left out, so a row
    /// of wide graphemes reads naturally (and has fewer characters than `width`).
    public var lines: [String] {
        (0..<height).map { row in
            var line = ""
            line.reserveCapacity(width)
            for cell in cells[row * width..<(row + 1) * width] where !cell.isContinuation {
                cell.append(to: &line)
            }
            return line
        }
    }

    /// One string per row with one character per cell, taken from `legend` by the cell's style
    /// (`unknown` for styles not in it): a picture of the styles for tests.
    public func styleMap(_ legend: [Style: Character], unknown: Character = "?") -> [String] {
        (0..<height).map { row in
            String(cells[row * width..<(row + 1) * width].map { legend[$0.style] ?? unknown })
        }
    }

    /// Calls `body` for every cell that differs from the cell at the same place in `previous`
    /// (for every cell when `previous` is `nil` or has another size), row by row, left to right.
    /// Continuation cells are skipped: a terminal draws a wide grapheme from its first cell, and
    /// that cell differs whenever its continuation does. How an adapter sends only changes.
    public func forEachCell(changedFrom previous: Buffer?, _ body: (_ x: Int, _ y: Int, _ cell: Cell) -> Void) {
        let old = previous.flatMap { $0.width == width && $0.height == height ? $0.cells : nil } ?? []
        cells.withUnsafeBufferPointer { new in
            old.withUnsafeBufferPointer { old in
                let compare = !old.isEmpty
                for y in 0..<height {
                    let start = y * width
                    for x in 0..<width {
                        let cell = new[start + x]
                        if cell.isContinuation || (compare && old[start + x] == cell) { continue }
                        body(x, y, cell)
                    }
                }
            }
        }
    }

    // MARK: - Writing

    /// Writes `text` from (x, y) to the right, one cell per column, and returns how many columns
    /// it used. Stops at the right edge, after `maxWidth` columns, or at the end of the text.
    ///
    /// A wide grapheme that does not fit in the remaining columns is replaced by a space (never
    /// split). Graphemes that take no column (a lone combining mark, a zero-width space) are
    /// dropped. Control characters become U+FFFD; run untrusted text through `TextSanitizer`
    /// first to show them legibly. Writing on a row outside the buffer, or with `maxWidth <= 0`,
    /// writes nothing and returns 0. Columns left of the buffer (negative x) are skipped but
    /// counted.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height else { return 0 }
        let limit = min(maxWidth ?? Int.max, width - x)
        guard limit > 0 else { return 0 }
        let utf8 = text.utf8
        var index = utf8.startIndex
        // Fast path: printable ASCII, one byte per cell, no grapheme breaking needed.
        var used = writeASCIIPrefix(utf8, from: &index, x: x, y: y, style: style, limit: limit)
        guard index != utf8.endIndex, used < limit || utf8[index] >= 0x80 else { return used }
        // A non-ASCII scalar may combine with the ASCII character before it (e + U+0301): redo
        // that one grapheme by grapheme.
        if used > 0 {
            used -= 1
            index = utf8.index(before: index)
        }
        for character in text[index...] {
            var glyphWidth = DisplayWidth.of(character)
            var cell = Cell(character: character, style: style, width: UInt8(glyphWidth))
            if glyphWidth == 0 {
                // Controls never share a grapheme with anything but each other (CR LF).
                guard character.unicodeScalars.first?.properties.generalCategory == .control else { continue }
                cell = Cell(character: "\u{FFFD}", style: style, width: 1)
                glyphWidth = 1
            }
            if used + glyphWidth > limit {
                put(Cell(style: style), x: x + used, y: y)
                used += 1
                break
            }
            put(cell, x: x + used, y: y)
            used += glyphWidth
            if used >= limit { break }
        }
        return used
    }

    /// Puts one grapheme at (x, y) and returns the columns it took (0 if it takes none or lies
    /// outside the buffer). A wide grapheme in the last column becomes a space. Controls become
    /// U+FFFD.
    @discardableResult
    public mutating func set(_ character: Character, x: Int, y: Int, style: Style = .plain) -> Int {
        write(String(character), x: x, y: y, style: style)
    }

    /// Replaces the cell at (x, y), keeping the wide-grapheme invariant: a wide cell in the last
    /// column becomes a space, a continuation cell becomes a blank, and a control character
    /// becomes U+FFFD. Ignored outside the buffer.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard contains(x: x, y: y) else { return }
        if cell.width == 0 {
            put(Cell(style: cell.style), x: x, y: y)
        } else if cell.asciiValue == nil, DisplayWidth.of(cell.scalar(at: 0)) == 0,
            cell.scalar(at: 0).properties.generalCategory == .control
        {
            put(Cell(character: "\u{FFFD}", style: cell.style, width: 1), x: x, y: y)
        } else {
            put(cell, x: x, y: y)
        }
    }

    /// Fills the part of `rect` inside the buffer with `character` (a single-width grapheme;
    /// anything else fills with spaces) in `style`.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let clipped = rect.intersection(area)
        guard !clipped.isEmpty else { return }
        let cell = DisplayWidth.of(character) == 1 ? Cell(character: character, style: style, width: 1) : Cell(style: style)
        for row in clipped.y..<clipped.maxY {
            repairLeft(x: clipped.x, y: row)
            repairRight(x: clipped.maxX - 1, y: row)
            let start = row * width
            cells.withUnsafeMutableBufferPointer { storage in
                for index in start + clipped.x..<start + clipped.maxX {
                    storage[index] = cell
                }
            }
        }
    }

    /// Lays `style` over the style of every cell of `rect` (see `Style.overlaid(by:)`), keeping
    /// the text: how a list highlights its selected row.
    public mutating func overlayStyle(_ style: Style, in rect: Rect) {
        let clipped = rect.intersection(area)
        guard !clipped.isEmpty else { return }
        for row in clipped.y..<clipped.maxY {
            let start = row * width
            for column in clipped.x..<clipped.maxX {
                cells[start + column].style = cells[start + column].style.overlaid(by: style)
            }
        }
    }

    // MARK: - Private

    private func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// Writes the leading run of printable ASCII bytes, up to `limit` columns, and leaves
    /// `index` on the first byte not written. Returns the columns used.
    private mutating func writeASCIIPrefix(
        _ utf8: String.UTF8View, from index: inout String.Index, x: Int, y: Int, style: Style, limit: Int
    ) -> Int {
        var used = 0
        // Columns left of the buffer are counted but not stored.
        while index != utf8.endIndex, used < limit, x + used < 0 {
            let byte = utf8[index]
            guard byte >= 0x20 && byte < 0x7F else { return used }
            used += 1
            index = utf8.index(after: index)
        }
        let first = x + used
        let rowStart = y * width
        cells.withUnsafeMutableBufferPointer { storage in
            while index != utf8.endIndex, used < limit {
                let byte = utf8[index]
                guard byte >= 0x20 && byte < 0x7F else { break }
                storage[rowStart + x + used] = Cell(asciiByte: byte, style: style)
                used += 1
                index = utf8.index(after: index)
            }
        }
        let last = x + used - 1
        if last >= first {
            // Only the ends of the run can have cut a wide grapheme in half.
            if first > 0, cells[rowStart + first].width == 1, cells[rowStart + first - 1].width == 2 {
                cells[rowStart + first - 1] = Cell(style: cells[rowStart + first - 1].style)
            }
            if last + 1 < width, cells[rowStart + last + 1].isContinuation {
                cells[rowStart + last + 1] = Cell(style: cells[rowStart + last + 1].style)
            }
        }
        return used
    }

    /// Stores a cell of width 1 or 2 at (x, y), clipped, keeping the wide invariant.
    private mutating func put(_ cell: Cell, x: Int, y: Int) {
        let glyphWidth = Int(cell.width)
        guard y >= 0, y < height, x < width, x + glyphWidth > 0 else { return }
        if x < 0 {
            // The left half of a wide grapheme is off screen: show a blank for the right half.
            put(Cell(style: cell.style), x: 0, y: y)
            return
        }
        let index = y * width + x
        repairLeft(x: x, y: y)
        if glyphWidth == 2 {
            guard x + 1 < width else {
                repairRight(x: x, y: y)
                cells[index] = Cell(style: cell.style)
                return
            }
            repairRight(x: x + 1, y: y)
            cells[index] = cell
            cells[index + 1] = .continuation(style: cell.style)
        } else {
            repairRight(x: x, y: y)
            cells[index] = cell
        }
    }

    /// Before (x, y) is overwritten: if it is the right half of a wide grapheme, blank the left.
    private mutating func repairLeft(x: Int, y: Int) {
        let index = y * width + x
        if cells[index].isContinuation, x > 0 {
            cells[index - 1] = Cell(style: cells[index - 1].style)
        }
    }

    /// Before (x, y) is overwritten: if it is the left half of a wide grapheme, blank the right.
    private mutating func repairRight(x: Int, y: Int) {
        let index = y * width + x
        if cells[index].width == 2, x + 1 < width {
            cells[index + 1] = Cell(style: cells[index + 1].style)
        }
    }
}
