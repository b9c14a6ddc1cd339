/// The size of one part when a `Rect` is split into rows or columns.
public enum LayoutSize: Sendable, Hashable {
    /// Exactly this many cells (negative counts as 0).
    case fixed(Int)
    /// This fraction (0…1) of the whole length, rounded down.
    case fraction(Double)
    /// An equal share of what the fixed and fractional parts leave; earlier `rest` parts get
    /// the odd cells.
    case rest
}
