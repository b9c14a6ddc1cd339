import Foundation
@testable import InstallHistory
import InstallEngine
import Testing

@Suite("Opening the history database")
final class HistoryStoreOpeningTests {
    private let folder = TemporaryFolder()

    @Test func missingFoldersAreCreatedPrivateAndTheDatabaseIsWAL() throws {
        let path = folder.file("state/installtop/history.sqlite3")
        _ = try HistoryStore(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("state/installtop"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        // A WAL database says so in its header (bytes 18 and 19 are 2).
        let header = try #require(FileManager.default.contents(atPath: path))
        #expect(header.count >= 20 && header[18] == 2 && header[19] == 2)
    }

    @Test func theDatabaseAndItsWALFilesAreOnlyTheOwnersFromTheFirstWrite() throws {
        let path = folder.file("private/history.sqlite3")
        let store = try HistoryStore(path: path)
        _ = try store.insert(HistoryEntry(
            operation: .install, resultCode: .succeeded, hResult: .ok, startedAt: Date(), endedAt: Date(),
            updateID: "secret", title: "token printed here", jobName: "j", outputTail: "TOKEN=hunter2"))
        for file in [path, path + "-wal", path + "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            let mode = try #require((attributes[.posixPermissions] as? NSNumber)?.intValue, "\(file)")
            #expect(mode & 0o077 == 0, "\(file) is mode \(String(mode, radix: 8))")
        }
    }

    /// Two engines' databases in one folder (a fleet's test hosts, `--history-db a.db` and
    /// `b.db`) each number their runs from 1: a shared `undo/3/` had both write the same .deb
    /// at once (the rollout test failed once so in CI).
    @Test func twoDatabasesInOneFolderKeepTheirVersionsApart() throws {
        let first = try HistoryStore(path: folder.file("h1-history.db"))
        let second = try HistoryStore(path: folder.file("h2-history.db"))
        #expect(first.undoFolder == folder.file("h1-history.db.undo"))
        #expect(second.undoFolder == folder.file("h2-history.db.undo"))
        // The default name keeps the folder installtop has always used.
        #expect(try HistoryStore(path: folder.file("history.sqlite3")).undoFolder == folder.file("undo"))
    }

    @Test func readingAMissingDatabaseThrowsAndCreatesNothing() {
        let path = folder.file("nothing-here/history.sqlite3")
        #expect(throws: HistoryError.missingDatabase(path: path)) {
            try HistoryStore(path: path, createIfMissing: false)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("nothing-here")))
    }

    @Test func aFileThatIsNotADatabaseIsReportedNotCrashedOn() throws {
        let path = folder.file("garbage.sqlite3")
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        do {
            _ = try HistoryStore(path: path, createIfMissing: false)
            Issue.record("opened a file that is not a database")
        } catch {
            #expect(error == .unusableDatabase(path: path, reason: "file is not a database"))
            #expect(error.description == "cannot use history database \(path): file is not a database")
        }
    }

    @Test func theDefaultPathFollowsXDGStateHome() {
        #expect(HistoryStore.defaultPath(environment: ["XDG_STATE_HOME": "/var/state", "HOME": "/home/ann"])
            == "/var/state/installtop/history.sqlite3")
        #expect(HistoryStore.defaultPath(environment: ["HOME": "/home/ann"])
            == "/home/ann/.local/state/installtop/history.sqlite3")
        // The XDG spec says to ignore empty and relative values.
        #expect(HistoryStore.defaultPath(environment: ["XDG_STATE_HOME": "", "HOME": "/home/ann"])
            == "/home/ann/.local/state/installtop/history.sqlite3")
        #expect(HistoryStore.defaultPath(environment: ["XDG_STATE_HOME": "state", "HOME": "/home/ann"])
            == "/home/ann/.local/state/installtop/history.sqlite3")
        #expect(HistoryStore.defaultPath(environment: [:]).hasSuffix("/.local/state/installtop/history.sqlite3"))
    }
}
