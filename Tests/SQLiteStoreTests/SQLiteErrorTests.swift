#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore
import Testing

@Suite("SQLite's errors keep its result codes and messages")
final class SQLiteErrorTests {
    private let folder = TemporaryFolder()

    @Test func constraintSyntaxAndMissingTable() throws {
        let connection = try SQLiteConnection(path: folder.file("errors.sqlite3"))
        try connection.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try connection.execute(sql: "INSERT INTO t VALUES (1, 'a')")
        let duplicate = #expect(throws: SQLiteError.self) { try connection.execute(sql: "INSERT INTO t VALUES (1, 'b')") }
        #expect(duplicate?.code == 19 && duplicate?.extendedCode == 1555, "SQLITE_CONSTRAINT_PRIMARYKEY")
        #expect(duplicate?.message == "UNIQUE constraint failed: t.id")
        #expect(duplicate?.sql == "INSERT INTO t VALUES (1, 'b')")
        let notNull = #expect(throws: SQLiteError.self) { try connection.execute(sql: "INSERT INTO t VALUES (2, ?)", arguments: [nil]) }
        #expect(notNull?.extendedCode == 1299, "SQLITE_CONSTRAINT_NOTNULL")
        let syntax = #expect(throws: SQLiteError.self) { try connection.execute(sql: "SELEC 1") }
        #expect(syntax?.code == 1 && syntax?.message.contains("syntax error") == true)
        let missing = #expect(throws: SQLiteError.self) { try connection.fetchAll(sql: "SELECT * FROM nowhere") }
        #expect(missing?.message == "no such table: nowhere")
        #expect(missing?.description == "SQLite error 1: no such table: nowhere - while executing `SELECT * FROM nowhere`")
    }

    @Test("A file that is not a database fails at its first statement, in SQLite's words")
    func notADatabase() throws {
        let path = folder.file("text.sqlite3")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(String(repeating: "not a database\n", count: 100).utf8)))
        let error = #expect(throws: SQLiteError.self) { _ = try SQLitePool(path: path, busyTimeout: .seconds(1)) }
        #expect(error?.code == 26 && error?.message == "file is not a database", "SQLITE_NOTADB")
    }

    @Test("A read-only connection cannot write, and a missing file is not created for one")
    func readOnly() throws {
        let path = folder.file("ro.sqlite3")
        let missing = #expect(throws: SQLiteError.self) { _ = try SQLiteConnection(path: path, access: .readOnly) }
        #expect(missing?.code == 14, "SQLITE_CANTOPEN")
        #expect(!FileManager.default.fileExists(atPath: path))
        try SQLiteConnection(path: path).execute(sql: "CREATE TABLE t (i)")
        let reader = try SQLiteConnection(path: path, access: .readOnly)
        let write = #expect(throws: SQLiteError.self) { try reader.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(write?.code == 8, "SQLITE_READONLY")
    }

    @Test("A transaction whose body throws is rolled back, and the body's error comes out")
    func rollback() throws {
        struct Refusal: Error {}
        let connection = try SQLiteConnection(path: folder.file("tx.sqlite3"))
        try connection.execute(sql: "CREATE TABLE t (i)")
        #expect(throws: Refusal.self) {
            try connection.inTransaction(.immediate) { connection in
                try connection.execute(sql: "INSERT INTO t VALUES (1)")
                throw Refusal()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 0)
        try connection.inTransaction(.deferred) { connection in try connection.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try connection.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 1)
    }
}
