import Synchronization

/// A connection of an `SQLitePool` with the lock that gives it to one caller at a time, and how
/// many callers hold or wait for it.
///
/// `@unchecked Sendable` because the connection (not `Sendable`: SQLite runs it without a mutex
/// of its own) is reached only through `withConnection`, under the lock.
final class LockedConnection: @unchecked Sendable {
    private let lock = Mutex<Void>(())
    private let connection: SQLiteConnection
    private let callersUnderWay = Atomic<Int>(0)

    init(_ connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Whether a caller holds (or waits for) the connection: such a reader is left to others.
    var isBusy: Bool { callersUnderWay.load(ordering: .relaxed) > 0 }

    /// Counts a caller that will use the connection, before the pool's lock on its readers is
    /// let go, so that no other read takes this one for idle meanwhile.
    func reserve() {
        callersUnderWay.add(1, ordering: .relaxed)
    }

    /// Runs `body` with the connection once no other caller uses it, after a `reserve()`.
    func withReservedConnection<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        defer { callersUnderWay.subtract(1, ordering: .relaxed) }
        return try withConnection(body)
    }

    /// Runs `body` with the connection once no other caller uses it.
    func withConnection<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try lock.withLock { _ in try body(connection) }
    }
}
