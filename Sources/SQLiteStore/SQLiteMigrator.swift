/// Brings a database's schema up to date with named migrations, applied once each, in the order
/// they were registered.
///
/// Applied migrations are recorded in the table GRDB's `DatabaseMigrator` kept,
/// `grdb_migrations(identifier)`, with the same identifiers: a database GRDB migrated goes on
/// from where GRDB left it, and one migrated here would open with GRDB as well.
public struct SQLiteMigrator {
    /// GRDB's table of applied migrations.
    public static let appliedMigrationsTable = "grdb_migrations"

    private var migrations: [(identifier: String, body: (SQLiteConnection) throws -> Void)] = []

    public init() {}

    /// The registered identifiers, in order.
    public var identifiers: [String] { migrations.map(\.identifier) }

    /// Adds migration `identifier`, run after those registered before.
    /// - Precondition: no migration of that identifier is registered.
    public mutating func registerMigration(_ identifier: String, _ body: @escaping (SQLiteConnection) throws -> Void) {
        precondition(!identifiers.contains(identifier), "migration \(identifier) is registered twice")
        migrations.append((identifier, body))
    }

    /// Applies every registered migration not applied yet, up to `identifier` included (all of
    /// them when `nil`), each in its own `BEGIN IMMEDIATE` transaction with the record that it
    /// was applied: a migration that fails leaves the database as the one before left it.
    /// Migrations another process applied meanwhile are not applied again. Identifiers in the
    /// table that are not registered here (a newer program's) are left alone.
    /// - Throws: what a migration throws, or `SQLiteError`.
    /// - Precondition: `identifier`, when given, is registered.
    public func migrate(_ connection: SQLiteConnection, upTo identifier: String? = nil) throws {
        let last = identifier.map { identifier in
            guard let index = identifiers.firstIndex(of: identifier) else { preconditionFailure("no migration \(identifier)") }
            return index
        } ?? migrations.count - 1
        guard last >= 0 else { return }
        try connection.execute(sql: "CREATE TABLE IF NOT EXISTS \(Self.appliedMigrationsTable) (identifier TEXT NOT NULL PRIMARY KEY)")
        for migration in migrations[...last] {
            try connection.inTransaction(.immediate) { connection in
                let applied = try connection.fetchValue(
                    Int.self, sql: "SELECT count(*) FROM \(Self.appliedMigrationsTable) WHERE identifier = ?", arguments: [migration.identifier])
                guard applied == 0 else { return }
                try migration.body(connection)
                try connection.execute(sql: "INSERT INTO \(Self.appliedMigrationsTable) (identifier) VALUES (?)", arguments: [migration.identifier])
            }
        }
    }

    /// `migrate` on the pool's writer.
    public func migrate(_ pool: SQLitePool, upTo identifier: String? = nil) throws {
        try pool.writeWithoutTransaction { connection in try migrate(connection, upTo: identifier) }
    }

    /// The registered migrations the database records as applied, in registration order; none
    /// when it has no table of them (a new database).
    public func appliedIdentifiers(_ connection: SQLiteConnection) throws -> [String] {
        let tableExists = try connection.fetchValue(
            Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [Self.appliedMigrationsTable])
        guard tableExists == 1 else { return [] }
        let applied = Set(try connection.fetchValues(String.self, sql: "SELECT identifier FROM \(Self.appliedMigrationsTable)"))
        return identifiers.filter(applied.contains)
    }
}
