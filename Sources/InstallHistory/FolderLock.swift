#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a folder, to serialize opening the history database across
/// processes.
///
/// Opening is not safe to race: switching a new file to WAL mode can fail with "database is
/// locked" whatever the busy timeout, and the GRDB-era migrator read the applied migrations
/// outside its transaction, so two processes both tried to create the table (an installtop of
/// that time may open the same file). The lock is on
/// the folder, not the database file, because closing any descriptor of the database file
/// would drop the POSIX locks SQLite holds on it in this process.
enum FolderLock {
    /// Runs `body` holding the lock of `folder`, waiting at most `timeout` for it.
    ///
    /// When the folder cannot be opened (no read permission), `body` runs unlocked: a race
    /// is unlikely, and refusing would make the history unusable there.
    static func withLock<T>(
        on folder: String, timeout: Duration, _ body: () throws -> T
    ) throws -> T {
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return try body() }
        defer {
            // Unlocked explicitly: a child being spawned by another thread may hold a copy of
            // the descriptor until its exec, and closing ours alone would leave it locked.
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { break }
            guard clock.now < deadline else { throw TimedOut(folder: folder, timeout: timeout) }
            usleep(10_000)
        }
        // The deferred unlock releases the lock, even if `body` throws.
        return try body()
    }

    /// Another process held the lock for the whole timeout.
    struct TimedOut: Error, CustomStringConvertible {
        var folder: String
        var timeout: Duration
        var description: String {
            "another installtop process kept \(folder) locked for \(timeout.components.seconds) s while opening it"
        }
    }
}
