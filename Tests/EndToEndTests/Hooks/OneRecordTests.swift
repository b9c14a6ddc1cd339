import APTTestSupport
import Foundation
import Testing

/// One transaction, one record (Documentation/OBSERVED-JOBS.md): `installtop apt` run beside an engine that watches
/// the same private root (its hooks, or dpkg's lock and log) is shown there live as that
/// installtop's job and recorded only by the engine that runs it: never an observed copy, so
/// the run stays undoable, and so does its undo.
@Suite("one transaction, one record", .serialized)
struct OneRecordTests {
    /// lab-base and lab-app at `version`, lab-app needing lab-base at exactly that version;
    /// with `gated`, lab-app's postinst waits for `$DPKG_ROOT/release`.
    private static func lab(_ version: String, gated: Bool = false) -> [TestPackage] {
        [
            TestPackage(name: "lab-base", version: version),
            TestPackage(name: "lab-app", version: version, depends: "lab-base (= \(version))",
                        postinst: gated ? "while [ ! -e \"$DPKG_ROOT/release\" ]; do sleep 0.05; done" : nil),
        ]
    }

    /// A private root with the lab at 1.0 and 2.0 published, and a serve that watches it.
    private struct Setup {
        let apt: APTTestRoot
        let fixture: DaemonFixture
        let client: RawClient

        /// - Parameters:
        ///   - hooks: the serve learns of apt's runs through the hooks; otherwise it follows the
        ///     root's dpkg lock and log (`--apt-config`).
        ///   - gatedPostinst: lab-app 2.0's postinst waits for `ROOT/release`.
        init(hooks: Bool, gatedPostinst: Bool = false) async throws {
            apt = try APTTestRoot()
            try apt.publish(OneRecordTests.lab("1.0"))
            try apt.aptGet(["install", "-y", "lab-app"], check: true)
            try apt.publish(OneRecordTests.lab("2.0", gated: gatedPostinst))
            fixture = try DaemonFixture(history: true)
            try await fixture.start(extraArguments: hooks ? [] : ["--apt-config", apt.configuration])
            if hooks {
                let installed = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket],
                                                     in: fixture.folder)
                guard installed.status == 0 else { throw EndToEndError.conditionNotMet("hooks install: \(installed.stdout)\(installed.stderr)") }
            }
            client = try await RawClient.subscribed(to: fixture.socket)
        }

        func remove() {
            client.close()
            apt.remove()
            fixture.folder.remove()
        }

        /// `installtop apt ARGUMENTS --yes --json --apt-config …` with `history` (a database, or
        /// `nil` for `--no-history`), run as from another shell: an engine of its own.
        func installtopAPT(_ arguments: [String], history: String?) async throws -> RunResult {
            let record = history.map { ["--history-db", $0] } ?? ["--no-history"]
            let result = try await installtop(["apt"] + arguments + ["--yes", "--json", "--apt-config", apt.configuration] + record,
                                              in: fixture.folder, timeout: .seconds(180))
            #expect(result.status == 0, "installtop apt \(arguments): \(result.stdout)\n\(result.stderr)")
            return result
        }

        /// The serve's job for the transaction, up to its `job.completed`: queued as observed,
        /// named after installtop, and carrying the mark of the engine that ran it.
        func watchedJob() async throws -> [JSONEvent] {
            // Its own job.completed: one of an earlier transaction's job that comes late (on a
            // loaded machine) is not this one's.
            var queuedJob: Int?
            let events = try await client.read(until: "the watched job's job.completed", timeout: .seconds(90)) { event in
                if event.name == "job.queued", queuedJob == nil { queuedJob = event.job }
                return event.name == "job.completed" && queuedJob != nil && event.job == queuedJob
            }
            let queued = try #require(events.first { $0.name == "job.queued" && $0.job == queuedJob })
            #expect(queued.bool("observed") == true, "\(queued)")
            #expect((queued.string("name") ?? "").hasPrefix("installtop "), "named as installtop's job: \(queued)")
            let by = queued.fields["observedBy"] as? [String: Any] ?? [:]
            #expect((by["installtopRun"] as? String ?? "").hasPrefix("engine="), "\(by)")
            return events
        }

        /// `history --jobs --json` of `database`, newest first.
        func runs(_ database: String) async throws -> [[String: Any]] {
            try await installtop(["history", "--jobs", "--json", "--history-db", database], in: fixture.folder).jsonObjects()
        }
    }

    @Test("Hooks and one history: the upgrade is one undoable run; its undo and the undo of the undo are runs of their own, never observed")
    func sameHistory() async throws {
        let host = HostPackageFingerprint()
        let setup = try await Setup(hooks: true)
        defer { setup.remove() }
        let database = try #require(setup.fixture.historyDatabase)

        _ = try await setup.installtopAPT(["upgrade"], history: database)
        _ = try await setup.watchedJob()
        #expect(try setup.apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0"])
        var runs = try await setup.runs(database)
        #expect(runs.count == 1, "one transaction, one run: \(runs)")
        let upgrade = try #require(runs.first)
        #expect(upgrade["observed"] as? Bool == false && upgrade["undoable"] as? Bool == true, "\(upgrade)")
        let upgradeID = try #require((upgrade["run"] as? NSNumber)?.intValue)

        _ = try await setup.installtopAPT(["undo", String(upgradeID)], history: database)
        _ = try await setup.watchedJob()
        #expect(try setup.apt.states().mapValues(\.version) == ["lab-base": "1.0", "lab-app": "1.0"])
        runs = try await setup.runs(database)
        #expect(runs.count == 2 && runs.allSatisfy { $0["observed"] as? Bool == false }, "\(runs)")
        let undo = try #require(runs.first)
        #expect(undo["undoable"] as? Bool == true, "the undo can be undone: \(undo)")
        let undoID = try #require((undo["run"] as? NSNumber)?.intValue)

        _ = try await setup.installtopAPT(["undo", String(undoID)], history: database)
        _ = try await setup.watchedJob()
        #expect(try setup.apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0"])
        runs = try await setup.runs(database)
        #expect(runs.count == 3 && runs.allSatisfy { $0["observed"] as? Bool == false }, "\(runs)")
        #expect(try setup.apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Hooks and separate histories: the serve shows installtop's job live and records none of it")
    func separateHistories() async throws {
        let host = HostPackageFingerprint()
        let setup = try await Setup(hooks: true)
        defer { setup.remove() }
        let own = setup.fixture.folder.file("own.sqlite3")

        _ = try await setup.installtopAPT(["upgrade"], history: own)
        let events = try await setup.watchedJob()
        #expect(events.contains { $0.name == "update.completed" }, "shown live, package by package: \(events)")
        #expect(try await setup.runs(own).count == 1)
        #expect(try await setup.runs(try #require(setup.fixture.historyDatabase)).isEmpty, "the serve recorded another engine's job")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("No hooks, dpkg's lock and log followed: installtop's job is shown as installtop's, and the serve records none of it")
    func logWatcher() async throws {
        let host = HostPackageFingerprint()
        let setup = try await Setup(hooks: false, gatedPostinst: true)
        defer { setup.remove() }
        let own = setup.fixture.folder.file("own.sqlite3")

        // The transaction waits in lab-app's postinst, holding dpkg's lock, until released: the
        // log watcher sees it whatever the machine's load.
        let upgrade = try InstalltopProcess(["apt", "upgrade", "--yes", "--json", "--apt-config", setup.apt.configuration,
                                             "--history-db", own], in: setup.fixture.folder)
        let queued = try await setup.client.read(until: "the serve's job for the transaction") { $0.name == "job.queued" }
        let job = try #require(queued.last)
        #expect((job.string("name") ?? "").hasPrefix("installtop "), "\(job)")
        let by = job.fields["observedBy"] as? [String: Any] ?? [:]
        let marker = (by["installtopRun"] as? String ?? "").split(separator: " ")
        #expect(marker.first == "engine=\(upgrade.pid)" && marker.contains("job=apt"), "the engine's pid and the job: \(by)")
        let refused = try await setup.fixture.run(["abort", String(try #require(job.job))])
        #expect(refused.status != 0 && refused.stderr.contains("stop it there"), "\(refused.stdout)\(refused.stderr)")
        try "".write(toFile: setup.apt.root + "/release", atomically: true, encoding: .utf8)
        let result = try await upgrade.finish(timeout: .seconds(180))
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        _ = try await setup.client.read(until: "the watched job's job.completed", timeout: .seconds(90)) { $0.name == "job.completed" }
        #expect(try setup.apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0"])
        #expect(try await setup.runs(own).count == 1)
        #expect(try await setup.runs(try #require(setup.fixture.historyDatabase)).isEmpty, "the serve recorded another engine's job")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
