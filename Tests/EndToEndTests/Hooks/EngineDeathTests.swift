import APTTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// An engine SIGKILLed mid-transaction (issue 43, item 2): apt-get and dpkg go on without it,
/// and whoever opens the history next ends the run from dpkg's final state and log, with a row
/// for every package (those begun after the death too) and the run's result: for installtop's
/// own apt job, for a transaction it watched, and for one it had only just seen. Private roots
/// only; every process a test starts is its own, killed by pid.
@Suite("an engine killed mid-transaction leaves a whole, ended record", .serialized)
struct EngineDeathTests {
    /// Six packages; lab-3's postinst says it began (`ROOT/tmp/lab-3-began`) and waits for
    /// `ROOT/tmp/release`.
    private static let six: [TestPackage] = (1...6).map { number in
        TestPackage(name: "lab-\(number)", postinst: number == 3 ? """
            mkdir -p "$DPKG_ROOT/tmp"
            touch "$DPKG_ROOT/tmp/lab-3-began"
            while [ ! -e "$DPKG_ROOT/tmp/release" ]; do sleep 0.05; done
            """ : nil)
    }
    private static let names = (1...6).map { "lab-\($0)" }

    private static func waitForFile(_ path: String, _ what: String) async throws {
        guard await eventually(timeout: .seconds(120), { FileManager.default.fileExists(atPath: path) }) else {
            throw EndToEndError.conditionNotMet(what)
        }
    }

    private static func release(_ apt: APTTestRoot) throws {
        try FileManager.default.createDirectory(atPath: apt.root + "/tmp", withIntermediateDirectories: true)
        try "".write(toFile: apt.root + "/tmp/release", atomically: true, encoding: .utf8)
    }

    /// `history --jobs --json` of `database` until its newest run has ended (each look settles
    /// what it can; while apt still holds dpkg's lock the run stays open), then that run.
    private static func endedRun(_ database: String, in folder: TestFolder) async throws -> [String: Any] {
        var last: [[String: Any]] = []
        let ended = try await eventually(timeout: .seconds(120)) {
            last = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
            return last.first?["endedAt"] is String
        }
        guard ended, let run = last.first else { throw EndToEndError.conditionNotMet("the run to end; history said \(last)") }
        return run
    }

    /// The rows `history --json` has for the packages, by package.
    private static func rows(_ database: String, in folder: TestFolder) async throws -> [String: [String: Any]] {
        let rows = try await installtop(["history", "--json", "--history-db", database], in: folder).jsonObjects()
        return Dictionary(rows.compactMap { row in (row["updateId"] as? String).map { ($0, row) } }) { first, _ in first }
    }

    private static func expectWhole(_ run: [String: Any], rows: [String: [String: Any]], apt: APTTestRoot) throws {
        #expect(run["result"] as? String == "succeeded", "\(run)\n\(rows)")
        let packages = (run["packages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }.sorted()
        #expect(packages == names, "a row for every package the transaction changed: \(run)")
        #expect(Set(rows.keys) == Set(names), "\(rows.keys.sorted())")
        for name in names {
            #expect(rows[name]?["result"] as? String == "succeeded", "\(name): \(rows[name] ?? [:])")
            let reason = rows[name]?["reason"] as? String ?? ""
            #expect(!reason.contains("interrupted"), "\(name): \(rows[name] ?? [:])")
        }
        #expect(try apt.states().filter { $0.value.status == "ii" }.keys.sorted() == names)
        #expect(try apt.audit().isEmpty)
    }

    @Test("installtop apt install of six packages SIGKILLed at the third one's postinst: apt goes on; the next look ends the run, six succeeded, undoable")
    func ownJob() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try apt.publish(Self.six)
        let database = folder.file("history.sqlite3")
        let process = try InstalltopProcess(["apt", "install"] + Self.names + ["--yes", "--json", "--apt-config", apt.configuration,
                                            "--history-db", database], in: folder)
        try await Self.waitForFile(apt.root + "/tmp/lab-3-began", "lab-3's postinst to run; stdout: \(process.stdout)")
        kill(process.pid, SIGKILL)
        _ = try await process.finish(timeout: .seconds(60))
        try Self.release(apt)

        let run = try await Self.endedRun(database, in: folder)
        try Self.expectWhole(run, rows: try await Self.rows(database, in: folder), apt: apt)
        #expect(run["undoable"] as? Bool == true, "\(run)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    /// A serve with the hooks and a history, watching a plain `apt-get install` of the six; once
    /// `moment` (given the events up to the observed job's `job.queued`) returns, the serve is
    /// SIGKILLed and apt let go on; then the run, as the next look settles it, must be whole.
    /// - Parameter holdAfterThePlan: a hook of the root's own, after installtop's (its name sorts
    ///   later), holds apt once the plan is reported, before dpkg runs.
    private static func killWatchingServe(holdAfterThePlan: Bool,
                                          moment: (_ queued: [JSONEvent], _ apt: APTTestRoot) async throws -> Void) async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish(Self.six)
        let fixture = try DaemonFixture(history: true)
        defer { fixture.remove() }
        let serve = try await fixture.start()
        let hooks = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket], in: fixture.folder)
        #expect(hooks.status == 0, "\(hooks.stderr)")
        if holdAfterThePlan {
            try FileManager.default.createDirectory(atPath: apt.root + "/tmp", withIntermediateDirectories: true)
            try "DPkg::Pre-Install-Pkgs:: \"cat >/dev/null; while [ ! -e \(apt.root)/tmp/release ]; do sleep 0.05; done\";\n"
                .write(toFile: apt.root + "/etc/apt/apt.conf.d/zz-lab-hold", atomically: true, encoding: .utf8)
        }
        let client = try await RawClient.subscribed(to: fixture.socket)
        defer { client.close() }
        let output = try fixture.folder.write("apt.out", "")
        let errors = try fixture.folder.write("apt.err", "")
        let aptGet = try SpawnedProcess(
            executable: "/usr/bin/apt-get", arguments: ["install", "-y"] + Self.names,
            environment: ProcessInfo.processInfo.environment.merging(apt.environment) { _, new in new },
            workingDirectory: fixture.folder.path, stdoutPath: output, stderrPath: errors)
        defer {
            try? Self.release(apt)
            if aptGet.poll() == nil { kill(aptGet.pid, SIGKILL) }
            _ = aptGet.waitBlocking()
        }
        let queued = try await client.read(until: "the observed job", timeout: .seconds(90)) { $0.name == "job.queued" }
        try await moment(queued, apt)
        kill(serve.pid, SIGKILL)
        try Self.release(apt)
        #expect(aptGet.waitBlocking() == 0, "apt-get went on without the engine")

        let database = try #require(fixture.historyDatabase)
        let run = try await Self.endedRun(database, in: fixture.folder)
        #expect(run["observed"] as? Bool == true, "\(run)")
        try Self.expectWhole(run, rows: try await Self.rows(database, in: fixture.folder), apt: apt)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A serve that watches apt-get through the hooks, SIGKILLed at the third package's postinst: the next look ends the observed run, six succeeded")
    func watchedJob() async throws {
        try await Self.killWatchingServe(holdAfterThePlan: false) { _, apt in
            try await Self.waitForFile(apt.root + "/tmp/lab-3-began", "lab-3's postinst to run")
        }
    }

    @Test("A serve SIGKILLed right after the observed job appeared, before dpkg's first line: the transaction is still in the history, whole and ended")
    func deathRightAfterTheJobAppeared() async throws {
        try await Self.killWatchingServe(holdAfterThePlan: true) { queued, _ in
            #expect(!queued.contains { $0.name == "update.started" }, "dpkg had not begun: \(queued.map(\.name))")
        }
    }
}
