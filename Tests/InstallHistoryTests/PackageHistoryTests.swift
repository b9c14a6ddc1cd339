import Foundation
import SQLiteStore
import InstallEngine
@testable import InstallHistory
import Testing

@Suite("A package update's action and versions are kept in the history")
final class PackageHistoryTests {
    private let folder = TemporaryFolder()

    private let updates = [
        Update(
            id: "openssl", title: "openssl 3.0.14 → 3.0.15",
            package: PackageChange(package: "openssl", action: .upgrade, oldVersion: "3.0.14", newVersion: "3.0.15", architecture: "amd64")),
        Update(id: "telnet", title: "telnet 0.17 (remove)", package: PackageChange(package: "telnet", action: .remove, oldVersion: "0.17")),
        Update(id: "script", title: "A script"),
    ]

    @Test func aPackageUpdatesRowHasItsActionAndVersionsStartedOrNot() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let recorder = HistoryRecorder(store: store)
        try recorder.record(EngineEvents.queued(EngineEvents.job(1, name: "apt", updates: updates)))
        try recorder.record(EngineEvents.started(1, at: 1))
        try recorder.record(EngineEvents.updateStarted(1, 0, "openssl", at: 1))
        // The running row already says what is being installed.
        let running = try #require(try store.entries(updateID: "openssl").first)
        #expect(running.isRunning)
        #expect(running.packageAction == .upgrade && running.oldVersion == "3.0.14" && running.newVersion == "3.0.15")
        try recorder.record(EngineEvents.updateCompleted(
            1, 0, "openssl",
            UpdateInstallationResult(resultCode: .succeeded, startedAt: EngineEvents.time(1), endedAt: EngineEvents.time(2)), at: 2))
        // Never started: its one row is written at its completion.
        try recorder.record(EngineEvents.updateCompleted(1, 1, "telnet", UpdateInstallationResult(resultCode: .aborted), at: 2))
        try recorder.record(EngineEvents.updateCompleted(1, 2, "script", UpdateInstallationResult(resultCode: .aborted), at: 2))
        try recorder.record(EngineEvents.completed(1, [], at: 2))

        let rows = try store.entries()
        let openssl = try #require(rows.first { $0.updateID == "openssl" })
        #expect(openssl.resultCode == .succeeded && !openssl.isRunning)
        #expect(openssl.title == "openssl 3.0.14 → 3.0.15")
        #expect(openssl.packageAction == .upgrade)
        #expect(openssl.oldVersion == "3.0.14")
        #expect(openssl.newVersion == "3.0.15")
        let telnet = try #require(rows.first { $0.updateID == "telnet" })
        #expect(telnet.packageAction == .remove && telnet.oldVersion == "0.17" && telnet.newVersion == nil)
        let script = try #require(rows.first { $0.updateID == "script" })
        #expect(script.packageAction == nil && script.oldVersion == nil && script.newVersion == nil)
    }

    @Test func everyActionIsStoredAndReadBack() throws {
        let store = try HistoryStore(path: folder.file("actions.sqlite3"))
        for action in PackageChange.Action.allCases {
            let row = try store.insert(HistoryEntry(
                operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0), endedAt: EngineEvents.time(1),
                updateID: action.rawValue, title: action.rawValue, packageAction: action, oldVersion: "1:1.0-1", newVersion: "1:2.0~rc1",
                jobName: "apt"))
            #expect(try store.entries(updateID: action.rawValue) == [row])
        }
    }

    @Test func aDatabaseOfTheThirdSchemaMigratesWithoutVersions() throws {
        let path = folder.file("v3.sqlite3")
        do {
            let old = try SQLitePool(path: path, busyTimeout: .seconds(5))
            try HistorySchema.migrator.migrate(old, upTo: HistorySchema.Migration.addQueryIndexes.rawValue)
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO historyEntry (operation, resultCode, hResult, unmappedResultCode, startedAt, endedAt, updateID,
                        revision, title, jobName, clientApplicationID, durationMs, outputTail, isRunning, writerPID)
                    VALUES (1, 2, 0, 0, '2023-11-14 22:13:20.000', '2023-11-14 22:13:21.000', 'tzdata', 1, 'Time zones',
                        'Security', 'installtop', 1000, '', 0, 4242)
                    """)
            }
        }

        let store = try HistoryStore(path: path)
        let applied = try store.pool.read { db in try HistorySchema.migrator.appliedIdentifiers(db) }
        #expect(applied == HistorySchema.Migration.allCases.map(\.rawValue))
        let columns = try store.pool.read { db in try db.fetchValues(String.self, sql: "SELECT name FROM pragma_table_info(?)", arguments: [HistoryEntry.databaseTableName]) }
        #expect(Set(columns).isSuperset(of: ["packageAction", "oldVersion", "newVersion"]))
        let old = try #require(try store.entries().first)
        #expect(old.updateID == "tzdata" && old.resultCode == .succeeded && old.durationMs == 1000)
        #expect(old.packageAction == nil && old.oldVersion == nil && old.newVersion == nil)

        // The migrated database takes package rows.
        let new = try store.insert(HistoryEntry(
            operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(5), endedAt: EngineEvents.time(6),
            updateID: "curl", title: "curl 7.88.1", packageAction: .install, newVersion: "7.88.1", jobName: "apt"))
        #expect(try store.entries(updateID: "curl") == [new])
    }

    @Test func anUnknownActionIsAnErrorNotAGuess() throws {
        let path = folder.file("newer.sqlite3")
        let store = try HistoryStore(path: path)
        try store.pool.write { db in
            try db.execute(sql: """
                INSERT INTO historyEntry (operation, resultCode, hResult, unmappedResultCode, startedAt, endedAt, updateID,
                    revision, title, jobName, clientApplicationID, outputTail, isRunning, packageAction)
                VALUES (1, 2, 0, 0, '2023-11-14 22:13:20.000', '2023-11-14 22:13:21.000', 'x', 1, 'x', 'apt', 'installtop',
                    '', 0, 'downgrade')
                """)
        }
        #expect(throws: HistoryError.self) { try store.entries() }
    }

    @Test func jsonHasTheActionAndVersions() throws {
        let entry = HistoryEntry(
            id: 7, operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0), endedAt: EngineEvents.time(1),
            updateID: "openssl", title: "openssl 3.0.14 → 3.0.15", packageAction: .upgrade, oldVersion: "3.0.14",
            newVersion: "3.0.15", jobName: "apt", durationMs: 1000)
        let line = try HistoryEntryJSON.line(for: entry)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["packageAction"] as? String == "upgrade")
        #expect(object["oldVersion"] as? String == "3.0.14")
        #expect(object["newVersion"] as? String == "3.0.15")
        #expect(object["title"] as? String == "openssl 3.0.14 → 3.0.15")
    }

    @Test func theTableOfPackageRowsStillFits80Columns() {
        let entry = HistoryEntry(
            operation: .install, resultCode: .failed, reason: "dpkg: error processing package libssl3-very-long-name (--configure)",
            startedAt: EngineEvents.time(0), endedAt: EngineEvents.time(61), updateID: "libssl3-very-long-package-name-t64",
            title: "libssl3-very-long-package-name-t64 3.0.14-1~deb12u1 → 3.0.15-1~deb12u1", packageAction: .upgrade,
            oldVersion: "3.0.14-1~deb12u1", newVersion: "3.0.15-1~deb12u1", jobName: "apt", durationMs: 61_000)
        for width in [80, 140, 200] {
            let text = HistoryTable.render([entry], width: width)
            let lines = text.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= width }, "\(text)")
            // At 80 the 34-character name gives up the last 2 columns: both versions stay whole.
            #expect(text.contains(width == 80 ? " libssl3-very-long-package-name-… " : " libssl3-very-long-package-name-t64 ")
                    && text.contains("3.0.14-1~deb12u1 →") && text.contains("3.0.15-1~deb12u1"), "the name and both versions: \(text)")
        }
        #expect(HistoryTable.render([entry], width: 200).split(separator: "\n").count == 2)
    }

    @Test("The table shows a package's versions, so `history --update openssl` reads as its versions over time")
    func theTableShowsVersions() {
        let upgrade = HistoryEntry(
            operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(100), endedAt: EngineEvents.time(101),
            updateID: "openssl", title: "openssl 3.0.14 → 3.0.15", packageAction: .upgrade, oldVersion: "3.0.14", newVersion: "3.0.15",
            jobName: "apt", durationMs: 1_000)
        let install = HistoryEntry(
            operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0), endedAt: EngineEvents.time(1),
            updateID: "openssl", title: "openssl 3.0.14", packageAction: .install, newVersion: "3.0.14", jobName: "apt", durationMs: 1_000)
        let lines = HistoryTable.render([upgrade, install], width: 80).split(separator: "\n").map(String.init)
        #expect(lines[0].contains("VERSION"))
        #expect(lines[1].contains("3.0.14 → 3.0.15") && lines[2].contains("3.0.14"), "\(lines)")
        let plain = HistoryEntry(operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0), endedAt: EngineEvents.time(1),
                                 updateID: "x", title: "x", jobName: "j", durationMs: 1_000)
        #expect(!HistoryTable.render([plain], width: 80).contains("VERSION"), "other histories read as before")
    }
}
