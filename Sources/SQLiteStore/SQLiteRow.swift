/// One row of a result, read by column name.
///
/// A row holds copies of its values: it stays valid after its statement moved on or finished.
public struct SQLiteRow: Sendable {
    private let columns: SQLiteColumnNames
    /// The values, in the order of `columnNames`.
    public let values: [SQLiteValue]

    init(columns: SQLiteColumnNames, values: [SQLiteValue]) {
        self.columns = columns
        self.values = values
    }

    /// The result's column names, in order (a join may repeat one).
    public var columnNames: [String] { columns.names }

    /// Whether the result has a column `name` (ASCII case ignored).
    public func hasColumn(_ name: String) -> Bool { columns.index(of: name) != nil }

    /// The value of column `name`; NULL when the result has no such column.
    public func value(named name: String) -> SQLiteValue {
        columns.index(of: name).map { values[$0] } ?? .null
    }

    /// Column `name` as a `T`; `nil` when it is NULL, missing, or not readable as a `T`.
    public subscript<T: SQLiteValueConvertible>(_ name: String) -> T? {
        let value = value(named: name)
        return value.isNull ? nil : T.fromSQLiteValue(value)
    }

    /// Column `name` as a `T`, for a column the schema declares `NOT NULL`.
    ///
    /// A NULL, a missing column or a value of another type stops the program, as it did with
    /// GRDB: the schema promised otherwise, and no value would be right to make up.
    public subscript<T: SQLiteValueConvertible>(_ name: String) -> T {
        let value = value(named: name)
        guard let converted = T.fromSQLiteValue(value) else {
            preconditionFailure("column \(name) holds \(value), not a \(T.self) (columns: \(columns.names))")
        }
        return converted
    }
}
