/// A rectangle of cells: origin (x, y) and size. Sizes are never negative.
public struct Rect: Sendable, Hashable {
    /// Left column (may be negative; drawing clips).
    public var x: Int
    /// Top row (may be negative; drawing clips).
    public var y: Int
    /// Columns; keep it non-negative when assigning directly.
    public var width: Int
    /// Rows; keep it non-negative when assigning directly.
    public var height: Int

    /// A rectangle; negative sizes become 0.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// One past the last column.
    public var maxX: Int { x + width }
    /// One past the last row.
    public var maxY: Int { y + height }
    /// True when the rectangle has no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }

    // MARK: - Geometry

    /// The cells both rectangles share; an empty rectangle if none.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: left, y: top, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle shrunk by the given margins; empty (not negative) when they do not fit.
    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }

    /// The rectangle shrunk by `margin` on every side.
    public func inset(by margin: Int) -> Rect {
        inset(top: margin, left: margin, bottom: margin, right: margin)
    }

    /// Row `index` of the rectangle (relative), one cell high; empty outside it.
    public func row(_ index: Int) -> Rect {
        guard index >= 0, index < height else { return Rect(x: x, y: y + index, width: width, height: 0) }
        return Rect(x: x, y: y + index, width: width, height: 1)
    }

    // MARK: - Layout

    /// Splits the rectangle into parts stacked from top to bottom, one per size (heights).
    /// Parts are laid out in order; when the sizes ask for more than the height, later parts
    /// shrink, down to empty. The parts always cover exactly the height when a `rest` is present.
    public func splitRows(_ sizes: [LayoutSize]) -> [Rect] {
        Rect.lengths(sizes, total: height).map { offset, length in
            Rect(x: x, y: y + offset, width: width, height: length)
        }
    }

    /// Splits the rectangle into parts side by side from left to right, one per size (widths),
    /// with the same rules as `splitRows`.
    public func splitColumns(_ sizes: [LayoutSize]) -> [Rect] {
        Rect.lengths(sizes, total: width).map { offset, length in
            Rect(x: x + offset, y: y, width: length, height: height)
        }
    }

    private static func lengths(_ sizes: [LayoutSize], total: Int) -> [(offset: Int, length: Int)] {
        var requested = sizes.map { size -> Int in
            switch size {
            case .fixed(let cells): return max(0, cells)
            case .fraction(let part):
                guard part.isFinite else { return 0 }
                return Int(min(max(part, 0), 1) * Double(total))
            case .rest: return 0
            }
        }
        let restCount = sizes.count { $0 == .rest }
        if restCount > 0 {
            let left = max(0, total - requested.reduce(0, +))
            var restSeen = 0
            for index in sizes.indices where sizes[index] == .rest {
                requested[index] = left / restCount + (restSeen < left % restCount ? 1 : 0)
                restSeen += 1
            }
        }
        var offset = 0
        return requested.map { length in
            let clipped = min(length, total - offset)
            defer { offset += clipped }
            return (offset, clipped)
        }
    }
}
