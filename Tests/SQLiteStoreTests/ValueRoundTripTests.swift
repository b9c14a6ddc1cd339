#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import Testing

@Suite("Values bound to a statement read back as they were")
final class ValueRoundTripTests {
    private let folder = TemporaryFolder()

    private func connection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: folder.file("values.sqlite3"))
        try connection.execute(sql: "CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, f BOOLEAN, d DATETIME)")
        return connection
    }

    @Test("Each type round-trips, extremes included", arguments: [Int64.min, -1, 0, 1, Int64.max])
    func everyType(integer: Int64) throws {
        let connection = try connection()
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let text = "a'b \u{202E} \u{0}nul é"
        let bytes = Data([0, 1, 0xFF, 0])
        try connection.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", arguments: [integer, 2.5, text, bytes, true, date])
        let row = try #require(try connection.fetchOne(sql: "SELECT * FROM t"))
        #expect(row["i"] as Int64 == integer)
        #expect(row["r"] as Double == 2.5)
        #expect(row["s"] as String == text)
        #expect(row["b"] as Data == bytes)
        #expect(row["f"] as Bool == true)
        #expect(row["d"] as Date == date)
        #expect(row["D"] as Date == date, "column names are found whatever their ASCII case")
        #expect(row.value(named: "d") == .text("2023-11-14 22:13:20.250"), "dates are stored as GRDB's text")
        #expect(row.value(named: "f") == .integer(1), "booleans are stored as 1 and 0")
        #expect(row["i"] as Int? == Int(exactly: integer))
        #expect(row["i"] as Int32? == Int32(exactly: integer), "an integer out of Int32's range is not read as one")
    }

    @Test("Empty texts and blobs stay empty, not NULL")
    func emptyValues() throws {
        let connection = try connection()
        try connection.execute(sql: "INSERT INTO t (s, b) VALUES (?, ?)", arguments: ["", Data()])
        let row = try #require(try connection.fetchOne(sql: "SELECT s, b, typeof(s) AS ts, typeof(b) AS tb FROM t"))
        #expect(row["ts"] as String == "text" && row["tb"] as String == "blob")
        #expect(row["s"] as String? == "" && row["b"] as Data? == Data())
    }

    @Test("NULL reads as nil, and so does a value of another type or a missing column")
    func nulls() throws {
        let connection = try connection()
        try connection.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", arguments: [nil, nil, "12", nil, nil, nil])
        let row = try #require(try connection.fetchOne(sql: "SELECT * FROM t"))
        #expect(row["i"] as Int64? == nil && row["r"] as Double? == nil && row["b"] as Data? == nil)
        #expect(row["f"] as Bool? == nil && row["d"] as Date? == nil)
        #expect(row["s"] as Int64? == nil, "a text is not converted to a number")
        #expect(row["missing"] as String? == nil && !row.hasColumn("missing"))
        #expect(row.value(named: "i") == .null)
        #expect(try connection.fetchValue(Int64.self, sql: "SELECT max(i) FROM t") == nil)
        #expect(try connection.fetchValue(Int64.self, sql: "SELECT i FROM t WHERE 0") == nil)
        let error = #expect(throws: SQLiteError.self) { try connection.fetchValues(Int64.self, sql: "SELECT i FROM t") }
        #expect(error?.code == 20, "SQLITE_MISMATCH: a list must not leave a NULL out silently")
    }

    @Test("Values of a column, in order; arguments from a sequence")
    func values() throws {
        let connection = try connection()
        for name in ["c", "a", "b"] { try connection.execute(sql: "INSERT INTO t (s) VALUES (?)", arguments: [name]) }
        let names = try connection.fetchValues(String.self, sql: "SELECT s FROM t WHERE s IN (?, ?) ORDER BY s", arguments: SQLiteArguments(["c", "a"]))
        #expect(names == ["a", "c"])
    }

    @Test("A script of several statements takes its arguments in order")
    func script() throws {
        let connection = try connection()
        try connection.execute(sql: "INSERT INTO t (i) VALUES (?); INSERT INTO t (i, s) VALUES (?, ?);\n  ", arguments: [1, 2, "two"])
        #expect(try connection.fetchValues(Int64.self, sql: "SELECT i FROM t ORDER BY rowid") == [1, 2])
        #expect(connection.lastInsertedRowID == 2)
        try connection.execute(sql: "UPDATE t SET s = 'x'")
        #expect(connection.changesCount == 2)
        let tooMany = #expect(throws: SQLiteError.self) { try connection.execute(sql: "INSERT INTO t (i) VALUES (?)", arguments: [1, 2]) }
        #expect(tooMany?.code == 25, "SQLITE_RANGE")
        let tooFew = #expect(throws: SQLiteError.self) { try connection.prepare("INSERT INTO t (i, s) VALUES (?, ?)").execute(arguments: [1]) }
        #expect(tooFew?.code == 25, "SQLITE_RANGE")
    }

    @Test("A cached statement is prepared once and reused with new arguments")
    func cachedStatement() throws {
        let connection = try connection()
        let insert = try connection.cachedStatement("INSERT INTO t (i) VALUES (?)")
        #expect(try connection.cachedStatement("INSERT INTO t (i) VALUES (?)") === insert)
        for value in 1...3 { try insert.execute(arguments: [value]) }
        #expect(try connection.fetchValues(Int.self, sql: "SELECT i FROM t ORDER BY i") == [1, 2, 3])
    }
}
