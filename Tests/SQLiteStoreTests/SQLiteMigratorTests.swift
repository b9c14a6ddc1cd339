import SQLiteStore
import Testing

@Suite("Migrations run once each, recorded where GRDB recorded them")
final class SQLiteMigratorTests {
    private let folder = TemporaryFolder()

    private static var migrator: SQLiteMigrator {
        var migrator = SQLiteMigrator()
        migrator.registerMigration("v1-create") { try $0.execute(sql: "CREATE TABLE t (a INTEGER)") }
        migrator.registerMigration("v2-addB") { try $0.execute(sql: "ALTER TABLE t ADD COLUMN b TEXT") }
        migrator.registerMigration("v3-addC") { try $0.execute(sql: "ALTER TABLE t ADD COLUMN c TEXT") }
        return migrator
    }

    @Test("Migrating twice changes nothing the second time")
    func idempotent() throws {
        let connection = try SQLiteConnection(path: folder.file("m.sqlite3"))
        #expect(try Self.migrator.appliedIdentifiers(connection) == [])
        try Self.migrator.migrate(connection, upTo: "v2-addB")
        #expect(try Self.migrator.appliedIdentifiers(connection) == ["v1-create", "v2-addB"])
        try Self.migrator.migrate(connection)
        try Self.migrator.migrate(connection)
        #expect(try Self.migrator.appliedIdentifiers(connection) == ["v1-create", "v2-addB", "v3-addC"])
        #expect(try connection.fetchValues(String.self, sql: "SELECT name FROM pragma_table_info('t') ORDER BY cid") == ["a", "b", "c"])
    }

    @Test("A database GRDB migrated goes on from GRDB's table, with GRDB's own schema for it")
    func grdbTable() throws {
        let connection = try SQLiteConnection(path: folder.file("g.sqlite3"))
        // What GRDB's DatabaseMigrator left after applying v1.
        try connection.execute(sql: """
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1-create'), ('v9-fromANewerVersion');
            CREATE TABLE t (a INTEGER);
            INSERT INTO t VALUES (7);
            """)
        try Self.migrator.migrate(connection)
        #expect(try connection.fetchValues(String.self, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            == ["v1-create", "v2-addB", "v3-addC", "v9-fromANewerVersion"])
        #expect(try connection.fetchValues(Int.self, sql: "SELECT a FROM t") == [7])
        #expect(try Self.migrator.appliedIdentifiers(connection) == ["v1-create", "v2-addB", "v3-addC"])

        let fresh = try SQLiteConnection(path: folder.file("fresh.sqlite3"))
        try Self.migrator.migrate(fresh)
        #expect(try fresh.fetchValue(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'grdb_migrations'")
            == "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    }

    @Test("A migration that fails leaves the database as the one before left it")
    func failingMigration() throws {
        var migrator = Self.migrator
        migrator.registerMigration("v4-broken") { connection in
            try connection.execute(sql: "ALTER TABLE t ADD COLUMN d TEXT")
            try connection.execute(sql: "ALTER TABLE nowhere ADD COLUMN e TEXT")
        }
        let connection = try SQLiteConnection(path: folder.file("f.sqlite3"))
        let error = #expect(throws: SQLiteError.self) { try migrator.migrate(connection) }
        #expect(error?.message == "no such table: nowhere")
        #expect(try migrator.appliedIdentifiers(connection) == ["v1-create", "v2-addB", "v3-addC"])
        #expect(try connection.fetchValues(String.self, sql: "SELECT name FROM pragma_table_info('t') ORDER BY cid") == ["a", "b", "c"])
    }
}
