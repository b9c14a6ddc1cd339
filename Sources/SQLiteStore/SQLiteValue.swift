/// One value as SQLite stores it: its five storage classes.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension SQLiteValue: CustomStringConvertible {
    /// The value as SQL would spell it (`NULL`, `42`, `'text'`, `X'00FF'`), for messages and tests.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'" + value.replacing("'", with: "''") + "'"
        case .blob(let bytes):
            let digits: [Character] = Array("0123456789ABCDEF")
            var text = "X'"
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0xF)])
            }
            return text + "'"
        }
    }
}
