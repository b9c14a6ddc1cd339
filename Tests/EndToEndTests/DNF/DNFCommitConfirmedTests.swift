import APTTestSupport
import Foundation
import Glibc
import InstallDrivers
import Testing

/// `installtop dnf … --confirm DURATION` (issue 57) through the real binary in a private
/// installroot: a run left to its deadline is undone from its kept rpms (exit 7, rpm's database
/// back at the old versions, the record `reverted`), a confirmation keeps it, a regressed check
/// reverts at once when asked, the engine reverts at the deadline of a run whose command is
/// gone, `installtop dnf revert` reverts now and waits while rpm's
/// database of the root is in use, and arming is refused, nothing run, for a protected package
/// the revert would remove and for a version that cannot be kept. The host's rpm state is never
/// touched (fingerprinted); the checks folder is the test's own.
@Suite("installtop dnf … --confirm (commit-confirmed)", .serialized)
struct DNFCommitConfirmedTests {
    /// The lab with lab-app and lab-lib installed at 1.0 and `versionTwo` published.
    private static func readyToUpgrade(_ lab: DNFHistoryLab, versionTwo: [RPMPackageRecipe] = [DNFTestLab.library("2.0"), DNFTestLab.application("2.0")])
        async throws {
        let install = try await lab.dnf(["install", "lab-app"])
        #expect(install.status == 0, "\(install.stderr)")
        try lab.root.publish(versionTwo)
    }

    /// `installtop dnf ARGUMENTS --confirm DURATION …` in the lab's root, with its own checks folder.
    private static func arguments(_ lab: DNFHistoryLab, _ arguments: [String], confirm: String, extra: [String] = []) -> [String] {
        ["dnf"] + arguments + ["--confirm", confirm, "--checks-dir", lab.folder.file("checks")] + extra
            + ["--yes", "--json", "--history-db", lab.database] + DNFEndToEnd.rootArguments(lab.root)
    }

    /// The armed run (the oldest run with a window), read every 200 ms until its window's
    /// state is one of `states` (two minutes at most).
    private static func armedRun(_ lab: DNFHistoryLab, in states: Set<String>) async throws -> (run: Int, window: [String: Any]) {
        let deadline = ContinuousClock.now + .seconds(120)
        var last: [String: Any] = [:]
        while ContinuousClock.now < deadline {
            if let armed = try await lab.runs().last(where: { $0["confirm"] is [String: Any] }),
               let window = armed["confirm"] as? [String: Any], let run = (armed["run"] as? NSNumber)?.intValue {
                last = armed
                if let state = window["state"] as? String, states.contains(state) { return (run, window) }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw EndToEndError.conditionNotMet("the armed run's window to be \(states.sorted()); last: \(last)")
    }

    private static func atVersion(_ lab: DNFHistoryLab, _ version: String) -> Bool {
        lab.root.installedVersions(of: "lab-app") == [version] && lab.root.installedVersions(of: "lab-lib") == [version]
    }

    @Test("Left to its deadline: reverted from the kept rpms, exit 7, rpm's database back at 1.0, recorded reverted with the undo's run")
    func deadlinePasses() async throws {
        let host = HostRPMFingerprint()
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        try await Self.readyToUpgrade(lab)
        let result = try await EndToEndTests.installtop(Self.arguments(lab, ["upgrade"], confirm: "3s"), in: lab.folder, timeout: .seconds(240))
        #expect(result.status == 7, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stderr.contains("dnf upgrade: health before the job: "), "\(result.stderr)")
        #expect(result.stderr.contains(" armed: confirm it by ") && result.stderr.contains("`installtop dnf revert "), "\(result.stderr)")
        #expect(result.stderr.contains("reverting (no confirmation by its deadline"), "\(result.stderr)")
        #expect(Self.atVersion(lab, "1.0-1"), "\(lab.root.installedVersions(of: "lab-app")) \(lab.root.installedVersions(of: "lab-lib"))")
        #expect(DNFEndToEnd.verified(lab.root, "lab-app").isEmpty && DNFEndToEnd.verified(lab.root, "lab-lib").isEmpty)

        let (run, window) = try await Self.armedRun(lab, in: ["reverted", "expired"])
        let runs = try await lab.runs()
        let undoRun = (runs.first?["run"] as? NSNumber)?.intValue
        #expect(window["state"] as? String == "reverted", "\(window)")
        #expect((window["revertRun"] as? NSNumber)?.intValue == undoRun && undoRun != run)
        #expect((runs.first { ($0["run"] as? NSNumber)?.intValue == run }?["undoneBy"] as? NSNumber)?.intValue == undoRun)
        #expect((window["reason"] as? String)?.hasPrefix("no confirmation by its deadline") == true, "\(window)")
        let events = try result.jsonEvents()
        #expect(events.first { $0.name == "run.armed" }?.int("run") == run, "\(result.stdout)")
        #expect(events.last?.name == "run.reverted" && events.last?.int("revertRun") == undoRun, "\(result.stdout)")
        // The window recorded the tool and the root the revert acted on.
        let stored = SystemCommand.run(["/usr/bin/sqlite3", lab.database, "SELECT tool || ' ' || installRoot FROM confirmWindow"])
        #expect(stored.stdout == "dnf \(lab.root.root)\n", "\(stored.stdout)\(stored.stderr)")
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("Confirmed in the window: the run stays at 2.0, the waiting command exits 0, the record says confirmed")
    func confirmationKeeps() async throws {
        let host = HostRPMFingerprint()
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        try await Self.readyToUpgrade(lab)
        let waiting = try InstalltopProcess(Self.arguments(lab, ["upgrade"], confirm: "120s"), in: lab.folder)
        let (run, _) = try await Self.armedRun(lab, in: ["armed"])
        let confirmed = try await lab.installtop(["confirm", "--run", String(run)])
        #expect(confirmed.status == 0 && confirmed.stdout == "run \(run): confirmed, it stays\n", "\(confirmed.stdout)\(confirmed.stderr)")
        let result = try await waiting.finish(timeout: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("run \(run) confirmed: it stays"), "\(result.stderr)")
        #expect(Self.atVersion(lab, "2.0-1"))
        #expect(try await Self.armedRun(lab, in: ["confirmed"]).window["state"] as? String == "confirmed")
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("A --check that passes before and fails after (2.0's %post breaks it) reverts at once with --revert-on-regression")
    func regressedCheckRevertsAtOnce() async throws {
        let host = HostRPMFingerprint()
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        var breaking = DNFTestLab.application("2.0")
        // rpm runs a scriptlet chrooted into the root: the file is the root's.
        breaking.post = #"io.open("/lab-broken", "w"):close()"#
        try await Self.readyToUpgrade(lab, versionTwo: [DNFTestLab.library("2.0"), breaking])
        let check = "test ! -e \(lab.root.root)/lab-broken"
        let started = ContinuousClock.now
        let result = try await EndToEndTests.installtop(Self.arguments(lab, ["upgrade"], confirm: "10m", extra: ["--check", check, "--revert-on-regression"]),
                                                        in: lab.folder, timeout: .seconds(300))
        #expect(result.status == 7, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(ContinuousClock.now - started < .seconds(300), "reverted at once, not at the 10-minute deadline")
        #expect(result.stderr.contains("regressed: \(check): passed → failed: exit status 1"), "\(result.stderr)")
        #expect(Self.atVersion(lab, "1.0-1"))
        let (_, window) = try await Self.armedRun(lab, in: ["reverted", "expired"])
        #expect(window["state"] as? String == "reverted", "\(window)")
        #expect((window["reason"] as? String)?.contains("\(check): passed → failed: exit status 1") == true, "\(window)")
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("installtop dnf revert RUN reverts now, waiting while rpm's database of the root is in use; apt revert refuses a dnf run")
    func revertCommandWaitsForTheRoot() async throws {
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        try await Self.readyToUpgrade(lab)
        let waiting = try InstalltopProcess(Self.arguments(lab, ["upgrade"], confirm: "10m"), in: lab.folder)
        defer { if DNFEndToEnd.isRunning(waiting.pid) { kill(waiting.pid, SIGKILL) } }
        let (run, _) = try await Self.armedRun(lab, in: ["armed"])
        let apt = try await lab.installtop(["apt", "revert", String(run)])
        #expect(apt.status == 1 && apt.stderr.contains("run \(run) is a dnf run: installtop dnf revert \(run) reverts it"), "\(apt.stderr)")

        // dnf's rpmdb lock names a live process (this test's): the root is in use.
        let lock = lab.root.root + "/var/lib/dnf/rpmdb_lock.pid"
        try "\(getpid())\n".write(toFile: lock, atomically: true, encoding: .utf8)
        var released = false
        defer { if !released { try? FileManager.default.removeItem(atPath: lock) } }
        let revert = try InstalltopProcess(["dnf", "revert", String(run), "--plain", "--history-db", lab.database], in: lab.folder)
        try await waitUntil("the revert to say it waits for the root") {
            revert.stderr.contains("rpm's database of \(lab.root.root) is in use by another transaction")
        }
        #expect(Self.atVersion(lab, "2.0-1"))
        try FileManager.default.removeItem(atPath: lock)
        released = true
        let reverted = try await revert.finish(timeout: .seconds(120))
        #expect(reverted.status == 7, "\(reverted.stderr)")
        #expect(reverted.stderr.contains("reverting (asked by the operator)"), "\(reverted.stderr)")
        #expect(Self.atVersion(lab, "1.0-1"))
        // The waiting command reads the revert and ends with it.
        let result = try await waiting.finish(timeout: .seconds(60))
        #expect(result.status == 7, "\(result.stderr)")
        #expect(try await Self.armedRun(lab, in: ["reverted", "expired"]).window["state"] as? String == "reverted")
    }

    @Test("The waiting command killed: the engine reverts the dnf run at its deadline with installtop dnf revert, in the run's root")
    func engineRevertsAtTheDeadline() async throws {
        let host = HostRPMFingerprint()
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        try await Self.readyToUpgrade(lab)
        let engine = try InstalltopProcess(["serve", "--socket", lab.folder.file("engine.sock"), "--history-db", lab.database], in: lab.folder)
        defer { if DNFEndToEnd.isRunning(engine.pid) { kill(engine.pid, SIGKILL) } }
        try await waitUntil("serve to listen") { engine.stderr.contains("serving on") }
        // Long enough to be killed in the window on a loaded machine: a waiting command still
        // alive at the deadline reverts the run itself.
        let waiting = try InstalltopProcess(Self.arguments(lab, ["upgrade"], confirm: "30s"), in: lab.folder)
        let (run, _) = try await Self.armedRun(lab, in: ["armed"])
        waiting.send(SIGKILL)
        _ = try await waiting.finish(timeout: .seconds(30))
        #expect(Self.atVersion(lab, "2.0-1"))

        let (_, window) = try await Self.armedRun(lab, in: ["reverted", "expired"])
        #expect(window["state"] as? String == "reverted", "\(window)\n\(engine.stderr)")
        #expect((window["reason"] as? String)?.hasPrefix("no confirmation by its deadline") == true, "\(window)")
        #expect(Self.atVersion(lab, "1.0-1"))
        try await waitUntil("serve to log the revert") { engine.stderr.contains("run \(run): reverted") }
        #expect(engine.stderr.contains("reverting it (installtop dnf revert \(run) --due)"), "\(engine.stderr)")
        engine.send(SIGTERM)
        _ = try await engine.finish(timeout: .seconds(60))
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("Arming refused, nothing run, exit 2: a protected package the revert would have to remove")
    func refusedForAProtectedPackage() async throws {
        let host = HostRPMFingerprint()
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        let configuration = lab.root.root + "/etc/dnf/dnf.conf"
        let text = try String(contentsOfFile: configuration, encoding: .utf8)
        try (text + "protected_packages=lab-print\n").write(toFile: configuration, atomically: true, encoding: .utf8)
        let result = try await EndToEndTests.installtop(Self.arguments(lab, ["install", "lab-print"], confirm: "1m"), in: lab.folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("dnf install lab-print: not armed, nothing was run: its revert could not be planned"), "\(result.stderr)")
        #expect(result.stderr.contains("lab-print is protected (dnf refuses to remove it"), "\(result.stderr)")
        #expect(lab.root.installedVersions(of: "lab-print").isEmpty)
        #expect(try await lab.runs().isEmpty)
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("Arming refused, nothing run, exit 2: a version that cannot be kept (a file of it deleted, so it cannot be rebuilt)")
    func refusedForAnUnkeepableVersion() async throws {
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        try await Self.readyToUpgrade(lab)
        try FileManager.default.removeItem(atPath: lab.root.root + "/usr/share/lab-app/version")
        let runsBefore = try await lab.runs().count
        let result = try await EndToEndTests.installtop(Self.arguments(lab, ["upgrade"], confirm: "1m"), in: lab.folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("not armed, nothing was run: its revert could not be planned"), "\(result.stderr)")
        #expect(result.stderr.contains("lab-app 1.0-1 cannot be kept for the revert: /usr/share/lab-app/version is missing (rpm -V)"), "\(result.stderr)")
        #expect(!result.stderr.contains("lab-lib 1.0-1 cannot be kept"), "\(result.stderr)")
        #expect(Self.atVersion(lab, "1.0-1"))
        #expect(try await lab.runs().count == runsBefore)
    }
}
