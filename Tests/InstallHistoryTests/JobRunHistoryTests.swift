import Foundation
import SQLiteStore
import InstallEngine
@testable import InstallHistory
import Testing

/// Job runs (`history --jobs`, rule 34), the versions kept for undo and their pruning (rule 33),
/// fed by hand: the recorder's runs, undoability and its reasons, and pruning on given dates.
@Suite("Job runs and kept versions in the history")
final class JobRunHistoryTests {
    private let folder = TemporaryFolder()

    private static func upgrade(_ name: String, _ old: String, _ new: String) -> Update {
        Update(id: name, title: "\(name) \(old) → \(new)",
               package: PackageChange(package: name, action: .upgrade, oldVersion: old, newVersion: new, architecture: "all"))
    }

    private static let succeeded = UpdateInstallationResult(resultCode: .succeeded)

    /// Records job `id` of `updates` that all succeed, from `at` on; its run shares `slot` when given.
    private func runJob(_ recorder: HistoryRecorder, _ id: Int, _ updates: [Update], at start: Double) throws {
        try recorder.record(EngineEvents.queued(EngineEvents.job(id, name: "apt upgrade", updates: updates), at: start))
        try recorder.record(EngineEvents.started(id, at: start))
        for (index, update) in updates.enumerated() {
            try recorder.record(EngineEvents.updateStarted(id, index, update.id, at: start + 1))
            try recorder.record(EngineEvents.updateCompleted(id, index, update.id, Self.succeeded, at: start + 2))
        }
        try recorder.record(EngineEvents.completed(id, updates.map { _ in Self.succeeded }, at: start + 3))
    }

    @Test func aJobIsOneRunWithItsPackagesAndTheKeepersReservationIsItsRun() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let slot = JobRunSlot()
        let recorder = HistoryRecorder(store: store, settleDelay: .zero, sharedRunSlot: { $0.id == 1 ? slot : nil })
        // The keeper comes first (before dpkg, before the job's first row) and names the run.
        let reserved = try slot.id { () throws(HistoryError) -> Int64 in
            try store.reserveJobRun(kind: "apt", name: "apt upgrade", operation: .install, startedAt: EngineEvents.time(0))
        }
        try store.recordKept([KeptVersionRecord(jobRun: reserved, package: "lab-app", version: "1.0", architecture: "all",
                                                file: "/kept/lab-app_1.0_all.deb", sizeBytes: 1234, source: "rebuilt")])
        try runJob(recorder, 1, [Self.upgrade("lab-app", "1.0", "2.0")], at: 0)

        let runs = try store.jobRuns(fileExists: { $0 == "/kept/lab-app_1.0_all.deb" })
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.id == reserved && run.kind == "apt" && run.resultCode == .succeeded && run.endedAt == EngineEvents.time(3))
        #expect(run.packages == [JobRunPackage(name: "lab-app", action: .upgrade, oldVersion: "1.0", newVersion: "2.0", resultCode: .succeeded)])
        #expect(run.kept.map(\.sizeBytes) == [1234])
        #expect(run.undoable && run.notUndoableBecause == nil)
        #expect(try store.entries().allSatisfy { $0.jobRun == reserved })
    }

    @Test func whyARunCannotBeUndone() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let recorder = HistoryRecorder(store: store, settleDelay: .zero)
        try runJob(recorder, 1, [Self.upgrade("lab-app", "1.0", "2.0"), Self.upgrade("lab-tool", "1.0", "2.0")], at: 0)
        try runJob(recorder, 2, [Self.upgrade("lab-tool", "2.0", "3.0")], at: 10)
        try runJob(recorder, 3, [Update(id: "script", title: "A script")], at: 20)
        let ids = try store.jobRuns().map(\.id)
        #expect(ids.count == 3 && ids == ids.sorted(by: >), "newest first")
        let (first, second) = (ids[2], ids[1])
        try store.recordKept([
            KeptVersionRecord(jobRun: first, package: "lab-app", version: "1.0", file: "/kept/a", sizeBytes: 1, source: "cache"),
            KeptVersionRecord(jobRun: first, package: "lab-tool", version: "1.0", file: "/kept/t1", sizeBytes: 1, source: "rebuilt"),
            KeptVersionRecord(jobRun: second, package: "lab-tool", version: "2.0", failure: "dpkg has 2.0 (iU), not 2.0 fully installed"),
        ])

        let runs = try store.jobRuns(fileExists: { _ in true })
        #expect(runs[0].kind == "commands" && runs[0].notUndoableBecause == "not a package job")
        #expect(runs[1].notUndoableBecause == "lab-tool 2.0 was not kept: dpkg has 2.0 (iU), not 2.0 fully installed")
        #expect(runs[2].notUndoableBecause == "run \(second) changed lab-tool again: undo run \(second) first")

        // Once the later run is undone, the earlier one may be undone if its files are there.
        try store.pool.write { db in try db.execute(sql: "UPDATE jobRun SET undoneBy = 99 WHERE id = ?", arguments: [second]) }
        let afterUndo = try store.jobRuns(fileExists: { $0 != "/kept/t1" })
        #expect(afterUndo[1].notUndoableBecause == "undone already by run 99")
        #expect(afterUndo[2].notUndoableBecause == "the kept file of lab-tool 1.0 is missing: /kept/t1")
        #expect(try store.jobRuns(fileExists: { _ in true })[2].undoable)
    }

    @Test("A run naming a package dpkg has half-way is not undoable and names the repair of the newest run naming it; a failed run whose package dpkg has half-configured is undone")
    func undoabilityFollowsDpkgsState() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let recorder = HistoryRecorder(store: store, settleDelay: .zero)
        try runJob(recorder, 1, [Self.upgrade("lab-app", "1.0", "2.0"), Self.upgrade("lab-tool", "1.0", "2.0")], at: 0)
        // Run 2's upgrade of lab-tool failed: dpkg left it half-installed.
        let failed = UpdateInstallationResult(resultCode: .failed)
        let update = Self.upgrade("lab-tool", "2.0", "3.0")
        try recorder.record(EngineEvents.queued(EngineEvents.job(2, name: "apt upgrade", updates: [update]), at: 10))
        try recorder.record(EngineEvents.started(2, at: 10))
        try recorder.record(EngineEvents.updateStarted(2, 0, update.id, at: 11))
        try recorder.record(EngineEvents.updateCompleted(2, 0, update.id, failed, at: 12))
        try recorder.record(EngineEvents.completed(2, [failed], at: 13))
        let ids = try store.jobRuns().map(\.id)
        let (first, second) = (ids[1], ids[0])
        try store.recordKept([
            KeptVersionRecord(jobRun: first, package: "lab-app", version: "1.0", file: "/kept/a", sizeBytes: 1, source: "cache"),
            KeptVersionRecord(jobRun: first, package: "lab-tool", version: "1.0", file: "/kept/t1", sizeBytes: 1, source: "cache"),
        ])
        try store.pool.write { db in try db.execute(sql: "UPDATE jobRun SET administrativeDirectory = '/root/var/lib/dpkg'") }
        var asked: [String] = []
        let halfWay = { (directory: String) -> [String: HalfWayPackage] in
            asked.append(directory)
            return directory == "/root/var/lib/dpkg" ? ["lab-tool": HalfWayPackage(version: "3.0", words: "half-installed at 3.0 (iHR)", needsRepair: true)] : [:]
        }
        let runs = try store.jobRuns(halfWay: halfWay, fileExists: { _ in true })
        #expect(runs[0].notUndoableBecause == "dpkg has lab-tool half-installed at 3.0 (iHR): installtop apt repair \(second) finishes it first")
        #expect(runs[1].notUndoableBecause == "dpkg has lab-tool half-installed at 3.0 (iHR): installtop apt repair \(second) finishes it first")
        #expect(asked == ["/root/var/lib/dpkg"], "dpkg is asked once a database")
        #expect(try store.newestAptRun(naming: ["lab-tool"]) == second)
        #expect(try store.newestAptRun(naming: ["lab-app"]) == first)
        #expect(try store.newestAptRun(naming: ["lab-none"]) == nil)
        // Without the lister's word on dpkg: as before.
        let unaware = try store.jobRuns(fileExists: { _ in true })
        #expect(unaware[0].notUndoableBecause == "it changed no package")
        #expect(unaware[1].undoable)
        // Once dpkg has it installed again, the first run may be undone.
        #expect(try store.jobRuns(halfWay: { _ in [:] }, fileExists: { _ in true })[1].undoable)

        // Half-configured at run 2's new version (its postinst failed): run 2's undo puts it
        // back once a version was kept, and the run that upgraded it before waits for that.
        let configured = ["lab-tool": HalfWayPackage(version: "3.0", words: "half-configured at 3.0 (iF)", needsRepair: false)]
        let failedRun = try store.jobRuns(halfWay: { _ in configured }, fileExists: { _ in true })
        #expect(failedRun[0].notUndoableBecause == "no version of lab-tool 2.0 was kept for this run")
        #expect(failedRun[1].notUndoableBecause == "dpkg has lab-tool half-configured at 3.0 (iF): installtop apt repair \(second) finishes it first")
        try store.recordKept([KeptVersionRecord(jobRun: second, package: "lab-tool", version: "2.0", file: "/kept/t2", sizeBytes: 1, source: "cache")])
        #expect(try store.jobRuns(halfWay: { _ in configured }, fileExists: { _ in true })[0].undoable)
        // At another version than the run's new one, it is not as run 2 left it.
        let other = ["lab-tool": HalfWayPackage(version: "4.0", words: "half-configured at 4.0 (iF)", needsRepair: false)]
        #expect(try store.jobRuns(halfWay: { _ in other }, fileExists: { _ in true })[0].notUndoableBecause
            == "dpkg has lab-tool half-configured at 4.0 (iF): installtop apt repair \(second) finishes it first")
    }

    @Test func anUndoThatSucceededMarksItsRunUndoneAndBlocksNoEarlierRun() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let recorder = HistoryRecorder(store: store, settleDelay: .zero)
        try runJob(recorder, 1, [Self.upgrade("lab-tool", "1.0", "2.0")], at: 0)
        try runJob(recorder, 2, [Self.upgrade("lab-tool", "2.0", "3.0")], at: 10)
        let (first, second) = (try store.jobRuns()[1].id, try store.jobRuns()[0].id)
        try store.recordKept([KeptVersionRecord(jobRun: first, package: "lab-tool", version: "1.0", file: "/kept/t1", sizeBytes: 1, source: "rebuilt"),
                              KeptVersionRecord(jobRun: second, package: "lab-tool", version: "2.0", file: "/kept/t2", sizeBytes: 1, source: "rebuilt")])
        // The undo of the second run: 3.0 back to 2.0.
        var undo = EngineEvents.job(3, name: "apt undo", operation: .uninstall, updates: [Self.upgrade("lab-tool", "3.0", "2.0")])
        undo.undoOf = Int(second)
        try recorder.record(EngineEvents.queued(undo, at: 20))
        try recorder.record(EngineEvents.updateStarted(3, 0, "lab-tool", at: 21))
        try recorder.record(EngineEvents.updateCompleted(3, 0, "lab-tool", Self.succeeded, at: 22))
        try recorder.record(EngineEvents.completed(3, [Self.succeeded], at: 23))

        let runs = try store.jobRuns(fileExists: { _ in true })
        #expect(runs[0].undoOf == second && runs[0].operation == .uninstall)
        #expect(runs[1].undoneBy == runs[0].id && runs[1].notUndoableBecause == "undone already by run \(runs[0].id)")
        #expect(runs[2].undoable, "neither the undone run nor the undo stands in the first run's way: \(runs[2].notUndoableBecause ?? "")")
        #expect(try store.jobRun(first, fileExists: { _ in true })?.undoable == true)
        #expect(try store.jobRun(99) == nil)
    }

    @Test func aRepairsReinstallStandsInNoRunsWayAndIsNotItselfUndoable() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let recorder = HistoryRecorder(store: store, settleDelay: .zero)
        try runJob(recorder, 1, [Self.upgrade("lab-tool", "1.0", "2.0")], at: 0)
        let reinstall = Update(id: "lab-tool", title: "lab-tool 2.0 (reinstall)",
                               package: PackageChange(package: "lab-tool", action: .reinstall, oldVersion: "2.0", newVersion: "2.0"))
        try runJob(recorder, 2, [reinstall], at: 10)
        let first = try store.jobRuns()[1].id
        try store.recordKept([KeptVersionRecord(jobRun: first, package: "lab-tool", version: "1.0", file: "/kept/t1", sizeBytes: 1, source: "rebuilt")])

        let runs = try store.jobRuns(fileExists: { _ in true })
        #expect(runs[0].notUndoableBecause == "it only reinstalled packages: there is no other version to put back")
        #expect(runs[1].undoable, "the same version's files put back change nothing an undo of run 1 relies on: \(runs[1].notUndoableBecause ?? "")")
    }

    @Test func aDeclinedJobRecordsNoRun() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let recorder = HistoryRecorder(store: store, settleDelay: .zero)
        try recorder.record(EngineEvents.queued(EngineEvents.job(1, updates: [Self.upgrade("lab-app", "1.0", "2.0")])))
        try recorder.record(EngineEvent(time: EngineEvents.time(1), kind: .jobCleanedUp(job: 1)))
        #expect(try store.jobRuns().isEmpty)
    }

    @Test func aDatabaseOfTheSchemaBeforeRunsListsNoRunsAndKeepsItsRows() throws {
        let path = folder.file("old.sqlite3")
        do {
            let old = try SQLitePool(path: path, busyTimeout: .seconds(5))
            try HistorySchema.migrator.migrate(old, upTo: HistorySchema.Migration.addObservedBy.rawValue)
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO historyEntry (operation, resultCode, hResult, unmappedResultCode, startedAt, endedAt, updateID,
                        revision, title, jobName, clientApplicationID, outputTail, isRunning, packageAction, oldVersion, newVersion)
                    VALUES (1, 2, 0, 0, '2023-11-14 22:13:20.000', '2023-11-14 22:13:21.000', 'openssl', 1, 'openssl', 'apt',
                        'installtop', '', 0, 'upgrade', '3.0.14', '3.0.15')
                    """)
            }
        }
        let store = try HistoryStore(path: path)
        #expect(try store.jobRuns().isEmpty)
        let row = try #require(try store.entries().first)
        #expect(row.jobRun == nil && row.newVersion == "3.0.15")
    }

    @Test func keptVersionsCarryDpkgsConffileHashesAndAptsMark() throws {
        let path = folder.file("v6.sqlite3")
        // A v6 database's kept row reads back with no hashes and no mark.
        do {
            let old = try SQLitePool(path: path, busyTimeout: .seconds(5))
            try HistorySchema.migrator.migrate(old, upTo: HistorySchema.Migration.addJobRuns.rawValue)
            try old.write { db in
                try db.execute(sql: "INSERT INTO jobRun (kind, name, operation, startedAt) VALUES ('apt', 'apt upgrade', 1, '2023-11-14 22:13:20.000')")
                try db.execute(sql: "INSERT INTO keptVersion (jobRun, package, version, file) VALUES (1, 'lab-old', '1.0', '/kept/old')")
            }
        }
        let store = try HistoryStore(path: path)
        try store.recordKept([KeptVersionRecord(jobRun: 1, package: "lab-app", version: "1.0", file: "/kept/a", sizeBytes: 1, source: "rebuilt",
                                                conffiles: ["/etc/lab app.conf": "0123", "/etc/lab-app.d/x": "4567"], automatic: false),
                              KeptVersionRecord(jobRun: 1, package: "lab-base", version: "1.0", file: "/kept/b", sizeBytes: 1, source: "cache",
                                                automatic: true)])
        let kept = try #require(try store.jobRun(1)?.kept)
        #expect(kept.map(\.package) == ["lab-old", "lab-app", "lab-base"])
        #expect(kept[0].conffiles.isEmpty && kept[0].automatic == nil)
        #expect(kept[1].conffiles == ["/etc/lab app.conf": "0123", "/etc/lab-app.d/x": "4567"] && kept[1].automatic == false)
        #expect(kept[2].conffiles.isEmpty && kept[2].automatic == true)
        #expect(try store.jobRun(1)?.keptForUndo == false)
    }

    @Test("A later run that changed a package again is named to undo first only when it can be; an observed one with nothing kept is said to block for good")
    func aLaterRunThatCannotBeUndoneIsSaidSo() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let recorder = HistoryRecorder(store: store, settleDelay: .zero)
        try runJob(recorder, 1, [Self.upgrade("tzdata", "2026b", "2026f")], at: 0)
        let first = try #require(try store.jobRuns().first?.id)
        try store.recordKept([KeptVersionRecord(jobRun: first, package: "tzdata", version: "2026b", file: "/kept/tz", sizeBytes: 1, source: "cache")])
        // apt-get by hand, seen without the hooks' keeping: tzdata back to 2026b.
        let byHand = try store.reserveJobRun(kind: "apt", name: "apt-get install tzdata=2026b", operation: .install,
                                             startedAt: EngineEvents.time(10), observed: true)
        try store.recordSettledRows([HistoryEntry(operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(10),
                                                  endedAt: EngineEvents.time(11), updateID: "tzdata", title: "tzdata 2026f → 2026b",
                                                  packageAction: .upgrade, oldVersion: "2026f", newVersion: "2026b", jobName: "apt-get",
                                                  jobRun: byHand)])
        try store.finishJobRun(byHand, name: "apt-get install tzdata=2026b", resultCode: .succeeded, endedAt: EngineEvents.time(11))
        let reason = try store.jobRun(first, fileExists: { _ in true })?.notUndoableBecause
        #expect(reason == "run \(byHand) changed tzdata again and cannot itself be undone (observed, not run by installtop: no versions were kept for it): "
            + "installtop cannot put tzdata back for this run", "\(reason ?? "undoable")")
        #expect(try store.jobRuns(fileExists: { _ in true }).first { $0.id == first }?.notUndoableBecause == reason, "the same in the listing")
    }

    @Test func anObservedRunKeptForUndoIsUndoableAndAnEnginesTwinOfItBlocksNothing() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let initiator = ObservedInitiator(pid: 4242, startTicks: 77, program: "apt-get", commandLine: [], uid: 0, user: "", terminal: "")
        func rows(_ run: Int64, by: ObservedInitiator?) -> [HistoryEntry] {
            [HistoryEntry(operation: .install, resultCode: .succeeded, startedAt: EngineEvents.time(0), endedAt: EngineEvents.time(1),
                          updateID: "lab-app", title: "lab-app 1.0 → 2.0", packageAction: .upgrade, oldVersion: "1.0", newVersion: "2.0",
                          jobName: "apt-get upgrade", observedBy: by, jobRun: run)]
        }
        let plain = try store.reserveJobRun(kind: "apt", name: "apt-get upgrade", operation: .install, startedAt: EngineEvents.time(0), observed: true)
        try store.recordSettledRows(rows(plain, by: nil))
        try store.finishJobRun(plain, name: "apt-get upgrade", resultCode: .succeeded, endedAt: EngineEvents.time(1))
        #expect(try store.jobRun(plain)?.notUndoableBecause == "observed, not run by installtop: no versions were kept for it")

        let kept = try store.reserveJobRun(kind: "apt", name: "apt-get upgrade (observed, kept for undo)", operation: .install,
                                           startedAt: EngineEvents.time(10), observed: true, keptForUndo: true)
        // The engine's run of the same apt process, reserved after it.
        let twin = try store.reserveJobRun(kind: "apt", name: "apt-get upgrade — root", operation: .install, startedAt: EngineEvents.time(10),
                                           observed: true)
        try store.recordKept([KeptVersionRecord(jobRun: kept, package: "lab-app", version: "1.0", file: "/kept/a", sizeBytes: 1, source: "rebuilt")])
        try store.recordSettledRows(rows(kept, by: initiator) + rows(twin, by: initiator))
        try store.finishJobRun(kept, name: "apt-get upgrade (observed, kept for undo)", resultCode: .succeeded, endedAt: EngineEvents.time(11))
        try store.finishJobRun(twin, name: "apt-get upgrade — root", resultCode: .succeeded, endedAt: EngineEvents.time(11))
        let runs = try store.jobRuns(fileExists: { _ in true })
        let keptRun = try #require(runs.first { $0.id == kept })
        #expect(keptRun.keptForUndo && keptRun.undoable, "\(keptRun.notUndoableBecause ?? "")")
        #expect(runs.first { $0.id == twin }?.notUndoableBecause == "the same transaction as run \(kept), which kept its versions: undo run \(kept)")
        // The same answer whatever the listing's length: the twin alone still names its keeper.
        for limit in 1...3 {
            let listed = try store.jobRuns(limit: limit, fileExists: { _ in true })
            #expect(listed.first { $0.id == twin }?.notUndoableBecause == "the same transaction as run \(kept), which kept its versions: undo run \(kept)",
                    "limit \(limit): \(listed.map { "\($0.id): \($0.notUndoableBecause ?? "undoable")" })")
            #expect(try store.jobRun(twin, fileExists: { _ in true })?.notUndoableBecause == listed.first { $0.id == twin }?.notUndoableBecause)
        }
    }

    // MARK: - Pruning

    private func keptRun(_ store: HistoryStore, startedDaysAgo days: Double, sizes: [Int64], now: Date) throws -> (run: Int64, files: [String]) {
        let run = try store.reserveJobRun(kind: "apt", name: "apt upgrade", operation: .install, startedAt: now.addingTimeInterval(-days * 86400))
        let runFolder = folder.file("undo/\(run)")
        try FileManager.default.createDirectory(atPath: runFolder, withIntermediateDirectories: true)
        var files: [String] = []
        for (index, size) in sizes.enumerated() {
            let file = runFolder + "/p\(index)_1.0_all.deb"
            #expect(FileManager.default.createFile(atPath: file, contents: Data(count: Int(size))))
            files.append(file)
        }
        try store.recordKept(files.enumerated().map { index, file in
            KeptVersionRecord(jobRun: run, package: "p\(index)", version: "1.0", file: file, sizeBytes: sizes[index], source: "rebuilt")
        })
        return (run, files)
    }

    @Test func pruningTakesRunsOlderThanTheAgeLimitThenTheOldestUntilTheTotalFits() throws {
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        let now = EngineEvents.time(1_000_000)
        let ancient = try keptRun(store, startedDaysAgo: 91, sizes: [10], now: now)
        let old = try keptRun(store, startedDaysAgo: 30, sizes: [400, 300], now: now)
        let recent = try keptRun(store, startedDaysAgo: 2, sizes: [500], now: now)
        let newest = try keptRun(store, startedDaysAgo: 0, sizes: [200], now: now)

        let pruned = try UndoPruning(maxAge: 90 * 86400, maxTotalBytes: 1000).prune(store, now: now)

        // 91 days is past the age; then 400 + 300 + 500 + 200 = 1400 > 1000: the oldest run goes whole.
        #expect(Set(pruned.map(\.jobRun)) == [ancient.run, old.run])
        for file in ancient.files + old.files { #expect(!FileManager.default.fileExists(atPath: file)) }
        #expect(!FileManager.default.fileExists(atPath: folder.file("undo/\(old.run)")), "an emptied run folder goes too")
        for file in recent.files + newest.files { #expect(FileManager.default.fileExists(atPath: file)) }
        let runs = try store.jobRuns()
        #expect(runs.first { $0.id == old.run }?.kept.allSatisfy { $0.prunedAt == now } == true)
        // Nothing more to prune on a second pass.
        #expect(try UndoPruning(maxAge: 90 * 86400, maxTotalBytes: 1000).prune(store, now: now).isEmpty)
    }

    @Test func theDefaultsAreNinetyDaysAndTwoGibibytes() {
        #expect(UndoPruning.defaultMaxAge == 90 * 24 * 3600)
        #expect(UndoPruning.defaultMaxTotalBytes == 2 * 1024 * 1024 * 1024)
        let now = EngineEvents.time(0)
        let kept = [(record: KeptVersionRecord(id: 1, jobRun: 1, package: "a", version: "1", file: "/a", sizeBytes: 5), runStartedAt: Optional(now.addingTimeInterval(-89 * 86400)))]
        #expect(UndoPruning().choose(kept, now: now).isEmpty)
        #expect(UndoPruning().choose(kept, now: now.addingTimeInterval(2 * 86400)).map(\.id) == [1])
    }

    @Test func theTableFitsEightyColumnsAndKeepsTheWholeReason() {
        let run = JobRun(id: 12, kind: "apt", name: String(repeating: "apt upgrade with a very long name ", count: 4), operation: .install,
                         startedAt: EngineEvents.time(0), endedAt: EngineEvents.time(5), resultCode: .succeeded,
                         packages: [JobRunPackage(name: "lab-tool", action: .upgrade, oldVersion: "1.0", newVersion: "2.0", resultCode: .succeeded),
                                    JobRunPackage(name: "lab-old", action: .remove, oldVersion: "0.9", newVersion: nil, resultCode: .succeeded),
                                    JobRunPackage(name: "lab-k2", action: .upgrade, oldVersion: "1.0", newVersion: "2.0", resultCode: .failed)],
                         notUndoableBecause: "run 13 changed lab-tool again: undo run 13 first, and here are more words to wrap the line past its end")
        let text = JobRunTable.render([run], width: 80)
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(text)")
        #expect(lines[0].hasPrefix("RUN  DATE (UTC)"))
        #expect(lines[1].hasPrefix(" 12  2023-11-14 22:13  apt       succeeded    no    apt upgrade"))
        #expect(lines[2] == "     lab-tool  1.0 → 2.0")
        #expect(lines[3] == "     lab-old   0.9 removed")
        // A package the run did not change is listed with how its update ended.
        #expect(lines[4] == "     lab-k2    1.0 → 2.0  failed")
        #expect(lines.dropFirst(5).joined(separator: " ").replacingOccurrences(of: "     ", with: "")
                    == "not undoable: " + (run.notUndoableBecause ?? ""))
    }
}
