/// The positions of the items a list shows: all of them (no storage) or a filtered subset in
/// ascending order.
public struct VisibleIndices: RandomAccessCollection, Sendable, Hashable {
    private enum Storage: Sendable, Hashable {
        case all(Int)
        case subset([Int])
    }

    private let storage: Storage

    /// Every position of a list of `count` items.
    public static func all(_ count: Int) -> VisibleIndices { VisibleIndices(storage: .all(Swift.max(0, count))) }

    /// These positions (ascending).
    public static func subset(_ positions: [Int]) -> VisibleIndices { VisibleIndices(storage: .subset(positions)) }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .all(let count): return count
        case .subset(let positions): return positions.count
        }
    }

    /// The item position shown on row `row`.
    public subscript(row: Int) -> Int {
        switch storage {
        case .all: return row
        case .subset(let positions): return positions[row]
        }
    }

    /// The row showing item `position`, or `nil` when it is not shown.
    public func row(of position: Int) -> Int? {
        switch storage {
        case .all(let count):
            return position >= 0 && position < count ? position : nil
        case .subset(let positions):
            var low = 0
            var high = positions.count - 1
            while low <= high {
                let middle = (low + high) / 2
                if positions[middle] == position { return middle }
                if positions[middle] < position { low = middle + 1 } else { high = middle - 1 }
            }
            return nil
        }
    }

    /// The row of the last item at or before `position` (the first row if none); `nil` when empty.
    public func nearestRow(to position: Int) -> Int? {
        guard !isEmpty else { return nil }
        if let row = row(of: position) { return row }
        return (0..<count).last { self[$0] <= position } ?? 0
    }
}
