import Dispatch
import Foundation
import Glibc
import SQLiteStore
import Synchronization
import Testing

@Suite("A pool reads beside its writer, and waits out another's lock")
final class SQLitePoolTests {
    private let folder = TemporaryFolder()

    private func pool(busyTimeout: Duration = .seconds(10)) throws -> SQLitePool {
        let pool = try SQLitePool(path: folder.file("pool.sqlite3"), busyTimeout: busyTimeout)
        try pool.writeWithoutTransaction { try $0.execute(sql: "CREATE TABLE IF NOT EXISTS t (i INTEGER)") }
        return pool
    }

    @Test("The file is in WAL mode and foreign keys are enforced")
    func walAndForeignKeys() throws {
        let pool = try pool()
        #expect(try pool.read { try $0.fetchValue(String.self, sql: "PRAGMA journal_mode") } == "wal")
        try pool.writeWithoutTransaction { connection in
            try connection.execute(sql: "CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parent INTEGER REFERENCES parent(id))")
        }
        let error = #expect(throws: SQLiteError.self) { try pool.write { try $0.execute(sql: "INSERT INTO child VALUES (42)") } }
        #expect(error?.extendedCode == 787, "SQLITE_CONSTRAINT_FOREIGNKEY")
    }

    @Test("Readers of this pool and of another process's read the last commit while a write is under way, without waiting")
    func readersDuringAWrite() throws {
        let pool = try pool()
        // Another process's pool: a busy timeout of zero fails at once if a read had to wait.
        let other = try SQLitePool(path: folder.file("pool.sqlite3"), busyTimeout: .zero)
        try pool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        let seen = try pool.write { connection in
            try connection.execute(sql: "INSERT INTO t VALUES (2)")
            let mine = try pool.read { try $0.fetchValues(Int.self, sql: "SELECT i FROM t ORDER BY i") }
            let theirs = try other.read { try $0.fetchValues(Int.self, sql: "SELECT i FROM t ORDER BY i") }
            let inside = try connection.fetchValues(Int.self, sql: "SELECT i FROM t ORDER BY i")
            return [mine, theirs, inside]
        }
        #expect(seen == [[1], [1], [1, 2]])
        #expect(try other.read { try $0.fetchValues(Int.self, sql: "SELECT i FROM t ORDER BY i") } == [1, 2])
    }

    @Test("A read cannot write")
    func readIsReadOnly() throws {
        let pool = try pool()
        let error = #expect(throws: SQLiteError.self) { try pool.read { try $0.execute(sql: "INSERT INTO t VALUES (1)") } }
        #expect(error?.code == 8, "SQLITE_READONLY")
    }

    @Test("A write fails at once with SQLITE_BUSY while another process holds the lock, without a busy timeout")
    func lockedWithoutTimeout() throws {
        let pool = try pool(busyTimeout: .zero)
        let holder = try SQLiteConnection(path: folder.file("pool.sqlite3"))
        try holder.execute(sql: "BEGIN IMMEDIATE")
        let error = #expect(throws: SQLiteError.self) { try pool.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") } }
        #expect(error?.code == 5 && error?.message == "database is locked", "SQLITE_BUSY")
        try holder.execute(sql: "ROLLBACK")
    }

    @Test("A write waits for another process's transaction within the busy timeout, and then succeeds after it")
    func lockedWithinTimeout() throws {
        let pool = try pool(busyTimeout: .seconds(30))
        let holder = try SQLiteConnection(path: folder.file("pool.sqlite3"))
        try holder.execute(sql: "BEGIN IMMEDIATE")
        try holder.execute(sql: "INSERT INTO t VALUES (1)")
        // The writer waits on a thread of its own and this test never yields: the lock is held
        // only as long as the lines below take, not as long as Swift's cooperative pool (two
        // threads here, often all blocked by other tests) takes to come back to an async test.
        let started = DispatchSemaphore(value: 0), ended = DispatchSemaphore(value: 0)
        let outcome = Mutex<(any Error)?>(nil)
        let writer = Thread {
            started.signal()
            do { try pool.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") } } catch { outcome.withLock { $0 = error } }
            ended.signal()
        }
        writer.start()
        started.wait()
        // The writer cannot have written yet: the holder's lock is still held.
        #expect(try pool.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 0)
        try holder.execute(sql: "COMMIT")
        ended.wait()
        #expect(outcome.withLock { $0 } == nil, "\(String(describing: outcome.withLock { $0 }))")
        #expect(try pool.read { try $0.fetchValues(Int.self, sql: "SELECT i FROM t ORDER BY rowid") } == [1, 2])
    }

    @Test("Many threads reading and writing at once lose no row")
    func manyThreads() async throws {
        let pool = try pool()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        try pool.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [task * 100 + index]) }
                        _ = try pool.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try pool.read { try $0.fetchValue(Int.self, sql: "SELECT count(DISTINCT i) FROM t") } == 200)
    }
}
