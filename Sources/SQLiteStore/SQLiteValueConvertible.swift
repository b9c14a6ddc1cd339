/// A Swift value SQLite can store and give back.
///
/// Reading is strict about the storage class, as GRDB was: an integer column reads as a
/// `String` only if it holds text, never by conversion; `nil` means the value cannot be read as
/// this type (NULL, or another storage class).
public protocol SQLiteValueConvertible {
    /// The value to bind to a statement's parameter.
    var sqliteValue: SQLiteValue { get }

    /// The Swift value of `value`; `nil` when it is NULL or cannot be read as this type.
    static func fromSQLiteValue(_ value: SQLiteValue) -> Self?
}
