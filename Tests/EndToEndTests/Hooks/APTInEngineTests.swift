import APTTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// `installtop apt …` with the machine's engine running on the same root (Documentation/OBSERVED-JOBS.md "One
/// transaction, one record"): the job runs in that engine, which plans it, keeps the versions it
/// replaces and records it; the command follows it to its end and exits as if it had run it. The
/// machine's socket is the serve's private one (`INSTALLTOP_MACHINE_SOCKET`), its root a private
/// apt root.
@Suite("installtop apt in the machine's engine", .serialized)
struct APTInEngineTests {
    /// A private root with lab-base and lab-app 1.0 installed and 2.0 published (lab-app needs
    /// lab-base at its own version), and a serve on that root with a history, as the machine's
    /// engine; with `gated`, lab-app 2.0's postinst makes `ROOT/waiting` and waits for `ROOT/release`.
    private struct Setup {
        let apt: APTTestRoot
        let fixture: DaemonFixture

        init(gated: Bool = false) async throws {
            apt = try APTTestRoot()
            try apt.publish([TestPackage(name: "lab-base", version: "1.0"),
                             TestPackage(name: "lab-app", version: "1.0", depends: "lab-base (= 1.0)")])
            try apt.aptGet(["install", "-y", "lab-app"], check: true)
            try apt.publish([
                TestPackage(name: "lab-base", version: "2.0"),
                TestPackage(name: "lab-app", version: "2.0", depends: "lab-base (= 2.0)",
                            postinst: gated ? "touch \"$DPKG_ROOT/waiting\"; while [ ! -e \"$DPKG_ROOT/release\" ]; do sleep 0.05; done" : nil),
            ])
            fixture = try DaemonFixture(history: true)
            try await fixture.start(extraArguments: ["--apt-config", apt.configuration])
        }

        func remove() {
            apt.remove()
            fixture.folder.remove()
        }

        /// Where the command finds the machine's engine: the serve's socket.
        var machine: [String: String] { ["INSTALLTOP_MACHINE_SOCKET": fixture.socket] }

        /// `installtop apt ARGUMENTS --apt-config ROOT` as from another shell of the machine.
        func installtopAPT(_ arguments: [String]) async throws -> RunResult {
            try await installtop(["apt"] + arguments + ["--apt-config", apt.configuration], in: fixture.folder, environment: machine,
                                 timeout: .seconds(180))
        }

        /// `history --jobs --json` of `database` (the serve's by default), newest first.
        func runs(_ database: String? = nil) async throws -> [[String: Any]] {
            try await installtop(["history", "--jobs", "--json", "--history-db", database ?? fixture.historyDatabase!], in: fixture.folder)
                .jsonObjects()
        }

        var versions: [String: String] { get throws { try apt.states().mapValues(\.version) } }
    }

    @Test("--yes --plain: the upgrade runs in the engine and is its one run; the undo, with --json, too; each exits as the job ended")
    func upgradeAndUndo() async throws {
        let host = HostPackageFingerprint()
        let setup = try await Setup()
        defer { setup.remove() }

        let upgrade = try await setup.installtopAPT(["upgrade", "--yes", "--plain"])
        #expect(upgrade.status == 0, "\(upgrade.stdout)\n\(upgrade.stderr)")
        #expect(upgrade.stderr.hasPrefix("installtop: apt upgrade runs in the machine's engine (pid "), "the first line says so: \(upgrade.stderr)")
        #expect(upgrade.stdout.contains("lab-app") && upgrade.stdout.contains("succeeded"), "the job's lines and summary: \(upgrade.stdout)")
        #expect(try setup.versions == ["lab-base": "2.0", "lab-app": "2.0"])
        var runs = try await setup.runs()
        #expect(runs.count == 1, "the engine's record, once: \(runs)")
        let run = try #require(runs.first)
        #expect(run["observed"] as? Bool == false && run["undoable"] as? Bool == true, "\(run)")
        let runID = try #require((run["run"] as? NSNumber)?.intValue)
        // The command's own history (its default, under the test's XDG_STATE_HOME) got nothing.
        #expect(!FileManager.default.fileExists(atPath: setup.fixture.folder.file("state/installtop/history.sqlite3")))
        // `history` without --history-db shows the engine's, where the job was recorded.
        let shown = try await installtop(["history", "--jobs", "--json"], in: setup.fixture.folder, environment: setup.machine)
        #expect(try shown.jsonObjects().count == 1 && shown.stderr.contains("showing the machine's engine's history"), "\(shown.stdout)\(shown.stderr)")

        let undo = try await setup.installtopAPT(["undo", String(runID), "--yes", "--json"])
        #expect(undo.status == 0, "\(undo.stdout)\n\(undo.stderr)")
        let events = try undo.jsonObjects()
        let queued = try #require(events.first { $0["event"] as? String == "job.queued" })
        #expect((queued["undoOf"] as? NSNumber)?.intValue == runID, "\(queued)")
        #expect(events.last?["event"] as? String == "job.completed", "followed to its end: \(events.last ?? [:])")
        #expect(Set(events.compactMap { ($0["job"] as? NSNumber)?.intValue }).count == 1, "one job's events only")
        #expect(try setup.versions == ["lab-base": "1.0", "lab-app": "1.0"])
        runs = try await setup.runs()
        #expect(runs.count == 2 && (runs.first?["undoOf"] as? NSNumber)?.intValue == runID, "\(runs)")
        #expect(runs.first?["undoable"] as? Bool == true, "the undo can be undone: \(runs)")
        #expect(try setup.apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("apt repair: finishing what dpkg left half-way runs in the engine too, recorded there, not in the command's own history")
    func repairFinishesInTheEngine() async throws {
        let host = HostPackageFingerprint()
        let setup = try await Setup()
        defer { setup.remove() }
        let upgrade = try await setup.installtopAPT(["upgrade", "--yes", "--plain"])
        #expect(upgrade.status == 0, "\(upgrade.stdout)\n\(upgrade.stderr)")
        let runID = try #require((try await setup.runs().first?["run"] as? NSNumber)?.intValue)
        // dpkg left lab-app half-configured, as a postinst that failed once leaves it.
        let status = setup.apt.root + "/var/lib/dpkg/status"
        let stanzas = try String(contentsOfFile: status, encoding: .utf8).components(separatedBy: "\n\n").map { stanza in
            stanza.hasPrefix("Package: lab-app\n") ? stanza.replacingOccurrences(of: "Status: install ok installed", with: "Status: install ok half-configured") : stanza
        }
        try stanzas.joined(separator: "\n\n").write(toFile: status, atomically: true, encoding: .utf8)
        try #require(try setup.apt.states()["lab-app"]?.status == "iF")

        let repair = try await setup.installtopAPT(["repair", String(runID), "--yes", "--plain"])
        #expect(repair.status == 0, "\(repair.stdout)\n\(repair.stderr)")
        let name = "apt repair \(runID) · finish what dpkg left half-way"
        #expect(repair.stderr.contains("installtop: \(name) runs in the machine's engine (pid "), "\(repair.stderr)")
        let serveLog = setup.fixture.serve?.stderr ?? ""
        #expect(serveLog.contains(": \(name) (1 update)"), "the engine ran it: \(serveLog)")
        #expect(try setup.apt.states().mapValues { "\($0.status) \($0.version)" } == ["lab-base": "ii 2.0", "lab-app": "ii 2.0"])
        let runs = try await setup.runs()
        #expect(runs.first?["name"] as? String == name && runs.first?["result"] as? String == "succeeded", "\(runs)")
        #expect(!FileManager.default.fileExists(atPath: setup.fixture.folder.file("state/installtop/history.sqlite3")),
                "the command's own history got nothing")
        #expect(try setup.apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Nothing to do, or a package apt does not know: said as here, nothing queued in the engine")
    func nothingToDoAndRefusal() async throws {
        let setup = try await Setup()
        defer { setup.remove() }
        let nothing = try await setup.installtopAPT(["install", "lab-base", "--yes", "--plain"])
        // lab-base 1.0 is installed and 2.0 published: an install of it upgrades; a removal
        // of a package that is not installed is nothing to do.
        #expect(nothing.status == 0, "\(nothing.stdout)\n\(nothing.stderr)")
        let absent = try await setup.installtopAPT(["remove", "lab-none", "--yes", "--plain"])
        #expect(absent.status == 2 && absent.stderr.contains("nothing was run") && absent.stderr.contains("lab-none"),
                "\(absent.stdout)\n\(absent.stderr)")
    }

    @Test("SIGINT passes on as the job's abort; caught at the last package, what happened stands: exit 0, the summary says why")
    func interruptAborts() async throws {
        let setup = try await Setup(gated: true)
        defer { setup.remove() }
        let upgrade = try InstalltopProcess(["apt", "upgrade", "--yes", "--plain", "--apt-config", setup.apt.configuration],
                                            in: setup.fixture.folder, environment: setup.machine)
        // lab-app's postinst waits: the job is in the engine and dpkg is on its last package.
        let waiting = await eventually(timeout: .seconds(120)) { FileManager.default.fileExists(atPath: setup.apt.root + "/waiting") }
        #expect(waiting, "lab-app's postinst never ran: \(upgrade.stdout)\n\(upgrade.stderr)")
        upgrade.send(SIGINT)
        let told = await eventually(timeout: .seconds(60)) { upgrade.stderr.contains("aborting job") }
        #expect(told, "\(upgrade.stderr)")
        try "".write(toFile: setup.apt.root + "/release", atomically: true, encoding: .utf8)
        let result = try await upgrade.finish(timeout: .seconds(180))
        #expect(result.stderr.contains("SIGINT: aborting job"), "\(result.stderr)")
        // The abort came while the last package ran: what happened stands (rule 16), all succeeded.
        #expect(result.status == 0 && result.stdout.contains("the abort of job 1 came after the last update"), "\(result.stdout)\n\(result.stderr)")
        #expect(try setup.apt.audit().isEmpty)
        #expect(try await setup.runs().count == 1)
    }

    @Test("An engine that does not answer (stopped) is said so, and the job runs here, into the command's own history")
    func hungEngine() async throws {
        let setup = try await Setup()
        defer { setup.remove() }
        let serve = try #require(setup.fixture.serve)
        serve.send(SIGSTOP)
        defer { serve.send(SIGCONT) }
        let own = setup.fixture.folder.file("own.sqlite3")
        let upgrade = try await setup.installtopAPT(["upgrade", "--yes", "--plain", "--history-db", own])
        // A --history-db other than the engine's: it runs here (the engine was asked whose
        // history it keeps, and did not answer).
        #expect(upgrade.status == 0, "\(upgrade.stdout)\n\(upgrade.stderr)")
        #expect(try await setup.runs(own).count == 1)

        let runID = try #require((try await setup.runs(own).first?["run"] as? NSNumber)?.intValue)
        let undo = try await setup.installtopAPT(["undo", String(runID), "--yes", "--plain", "--history-db", own])
        #expect(undo.status == 0, "\(undo.stdout)\n\(undo.stderr)")
        let again = try await setup.installtopAPT(["upgrade", "--yes", "--plain"])
        #expect(again.status == 0, "\(again.stdout)\n\(again.stderr)")
        #expect(again.stderr.contains("did not answer within") && again.stderr.contains("it runs here"), "\(again.stderr)")
        #expect(try setup.versions == ["lab-base": "2.0", "lab-app": "2.0"])
        #expect(try setup.apt.audit().isEmpty)
    }
}
