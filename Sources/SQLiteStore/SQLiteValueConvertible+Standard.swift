#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The standard types the history stores. Integers are stored as SQLite's signed 64-bit
// integers; reading a value out of a smaller type's range gives `nil`, never a wrapped number.

extension Int64: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self) }

    /// An integer, or a real with no fractional part that fits.
    public static func fromSQLiteValue(_ value: SQLiteValue) -> Int64? {
        switch value {
        case .integer(let integer): return integer
        case .real(let real): return Int64(exactly: real)
        default: return nil
        }
    }
}

extension Int: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }

    public static func fromSQLiteValue(_ value: SQLiteValue) -> Int? {
        Int64.fromSQLiteValue(value).flatMap { Int(exactly: $0) }
    }
}

extension Int32: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }

    public static func fromSQLiteValue(_ value: SQLiteValue) -> Int32? {
        Int64.fromSQLiteValue(value).flatMap { Int32(exactly: $0) }
    }
}

extension Double: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(self) }

    /// A real, or an integer.
    public static func fromSQLiteValue(_ value: SQLiteValue) -> Double? {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: return nil
        }
    }
}

extension Bool: SQLiteValueConvertible {
    /// 1 or 0, as SQLite's own boolean expressions give.
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }

    /// Any non-zero number is true.
    public static func fromSQLiteValue(_ value: SQLiteValue) -> Bool? {
        switch value {
        case .integer(let integer): return integer != 0
        case .real(let real): return real != 0
        default: return nil
        }
    }
}

extension String: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(self) }

    /// Text only: numbers are not turned into text.
    public static func fromSQLiteValue(_ value: SQLiteValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

extension Data: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .blob(Array(self)) }

    /// A blob, or the UTF-8 bytes of a text.
    public static func fromSQLiteValue(_ value: SQLiteValue) -> Data? {
        switch value {
        case .blob(let bytes): return Data(bytes)
        case .text(let text): return Data(text.utf8)
        default: return nil
        }
    }
}

extension Date: SQLiteValueConvertible {
    /// Text in UTC with milliseconds (`SQLiteDateText`), the form GRDB wrote and SQLite's date
    /// functions read.
    public var sqliteValue: SQLiteValue { .text(SQLiteDateText.text(self)) }

    /// A text `SQLiteDateText` reads, or a number of seconds since 1970 (integer or real).
    public static func fromSQLiteValue(_ value: SQLiteValue) -> Date? {
        switch value {
        case .text(let text): return SQLiteDateText.date(from: text)
        case .integer(let seconds): return Date(timeIntervalSince1970: Double(seconds))
        case .real(let seconds): return Date(timeIntervalSince1970: seconds)
        default: return nil
        }
    }
}

extension SQLiteValue: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self }

    /// Every value, NULL included.
    public static func fromSQLiteValue(_ value: SQLiteValue) -> SQLiteValue? { value }
}
