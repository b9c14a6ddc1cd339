/// The values bound to a statement's `?` parameters, in order; `nil` binds NULL.
public struct SQLiteArguments: ExpressibleByArrayLiteral, Sendable, Hashable {
    public var values: [SQLiteValue]

    /// `[id, name, nil]`: each element's `sqliteValue`, NULL for `nil`.
    public init(arrayLiteral elements: (any SQLiteValueConvertible)?...) {
        values = elements.map { $0?.sqliteValue ?? .null }
    }

    /// Every value of `sequence`, in order.
    public init<S: Sequence>(_ sequence: S) where S.Element: SQLiteValueConvertible {
        values = sequence.map(\.sqliteValue)
    }

    /// Each of `values`, `nil` as NULL.
    public init(_ values: [(any SQLiteValueConvertible)?]) {
        self.values = values.map { $0?.sqliteValue ?? .null }
    }

    public init(values: [SQLiteValue]) {
        self.values = values
    }
}
