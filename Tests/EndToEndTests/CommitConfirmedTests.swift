import APTTestSupport
import Foundation
import Glibc
import Testing

/// `--confirm DURATION` (issue 57) through the real binary in a private apt root: a run left to
/// its deadline is undone from its kept versions (exit 7, dpkg clean, the record `reverted`),
/// a confirmation keeps it, an extension moves the deadline, a regressed check reverts at once
/// when asked, the engine reverts at the deadline of a run whose command is gone (also when it
/// was killed in the window and started after the deadline), a revert waits for dpkg's lock,
/// and arming is refused for a package that cannot be kept. The host's packages are never
/// touched (fingerprinted); the checks folder is the test's own.
@Suite("installtop apt … --confirm (commit-confirmed)", .serialized)
struct CommitConfirmedTests {
    /// The lab at 1.0 with 2.0 published: `apt upgrade` would take all three to 2.0.
    private static func readyToUpgrade(_ lab: UndoLab, version two: [TestPackage] = UndoLab.packages("2.0")) throws {
        try lab.installVersionOne()
        try lab.apt.publish(two)
    }

    /// `installtop apt upgrade --confirm DURATION …` with the lab's arguments and its own checks folder.
    private static func upgradeArguments(_ lab: UndoLab, confirm: String, extra: [String] = []) -> [String] {
        ["apt", "upgrade", "--confirm", confirm, "--checks-dir", lab.folder.file("checks")] + extra + lab.arguments
    }

    /// The newest run's `confirm` object from `history --jobs --json`, read every 200 ms until
    /// `condition` holds for it (a minute at most).
    private static func window(of lab: UndoLab, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(120)
        var last: [String: Any] = [:]
        while ContinuousClock.now < deadline {
            let runs = try await lab.runs()
            if let confirm = runs.lazy.compactMap({ $0["confirm"] as? [String: Any] }).first {
                last = confirm
                if condition(confirm) { return confirm }
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw EndToEndError.conditionNotMet("the armed run's window to change; last: \(last)")
    }

    private static func state(_ window: [String: Any]) -> String? { window["state"] as? String }

    /// A window's deadline as a date.
    private static func deadline(of window: [String: Any]) throws -> Date {
        let text = try #require(window["deadline"] as? String)
        return try #require(ISO8601DateFormatter.withFractions.date(from: text))
    }

    /// The run that was armed (the oldest run with a window).
    private static func armedRun(_ lab: UndoLab) async throws -> [String: Any] {
        try #require(try await lab.runs().last { $0["confirm"] is [String: Any] })
    }

    @Test("Left to its deadline: reverted from the kept versions, exit 7, dpkg clean, recorded reverted with the undo's run")
    func deadlinePasses() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        try Self.readyToUpgrade(lab)
        let result = try await installtop(Self.upgradeArguments(lab, confirm: "3s"), in: lab.folder, timeout: .seconds(180))
        #expect(result.status == 7, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stderr.contains("health before the job: "), "\(result.stderr)")
        #expect(result.stderr.contains(" armed: confirm it by "), "\(result.stderr)")
        #expect(result.stderr.contains("reverting (no confirmation by its deadline"), "\(result.stderr)")
        // No systemd here (the tests' INSTALLTOP_SYSTEMD_RUNNING=0): no timer, no restarts recorded.
        #expect(result.stderr.contains("at its next start (systemd is not running here: no timer holds the deadline)"), "\(result.stderr)")
        #expect(result.stderr.contains("services: none restarted again (the job's restarts were not recorded"), "\(result.stderr)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"])
        #expect(try lab.apt.audit().isEmpty)
        #expect(try lab.conffileIsEdited())
        let armed = try await Self.armedRun(lab)
        let confirm = try #require(armed["confirm"] as? [String: Any])
        let undoRun = (try await lab.runs().first?["run"] as? NSNumber)?.intValue
        #expect(Self.state(confirm) == "reverted", "\(confirm)")
        #expect((confirm["revertRun"] as? NSNumber)?.intValue == undoRun && undoRun != (armed["run"] as? NSNumber)?.intValue)
        #expect((armed["undoneBy"] as? NSNumber)?.intValue == undoRun)
        #expect((confirm["reason"] as? String)?.hasPrefix("no confirmation by its deadline") == true, "\(confirm)")
        // --json: the window's events after the job's, the undo's job between them.
        let events = try result.jsonEvents()
        let armedEvent = try #require(events.first { $0.name == "run.armed" })
        #expect(armedEvent.int("run") == (armed["run"] as? NSNumber)?.intValue && armedEvent.string("deadline") == confirm["deadline"] as? String)
        #expect(events.last?.name == "run.reverted" && events.last?.int("revertRun") == undoRun, "\(result.stdout)")
        let table = try await installtop(["history", "--jobs", "--history-db", lab.database], in: lab.folder)
        #expect(table.stdout.contains("reverted at ") && table.stdout.contains("by run \(undoRun ?? -1)"), "\(table.stdout)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Confirmed in the window: the run stays at 2.0, the waiting command exits 0, the record says confirmed; a second confirm is refused")
    func confirmationKeeps() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        try Self.readyToUpgrade(lab)
        let waiting = try InstalltopProcess(Self.upgradeArguments(lab, confirm: "120s"), in: lab.folder)
        _ = try await Self.window(of: lab) { Self.state($0) == "armed" }
        let run = try #require((try await Self.armedRun(lab)["run"] as? NSNumber)?.intValue)
        let confirmed = try await installtop(["confirm", "--run", String(run), "--history-db", lab.database], in: lab.folder)
        #expect(confirmed.status == 0 && confirmed.stdout == "run \(run): confirmed, it stays\n", "\(confirmed.stdout)\(confirmed.stderr)")
        let result = try await waiting.finish(timeout: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("run \(run) confirmed: it stays"), "\(result.stderr)")
        #expect(try lab.states() == ["lab-base": "ii 2.0", "lab-app": "ii 2.0", "lab-tool": "ii 2.0"])
        let window = try await Self.window(of: lab) { _ in true }
        #expect(Self.state(window) == "confirmed", "\(window)")
        let again = try await installtop(["confirm", "--run", String(run), "--history-db", lab.database], in: lab.folder)
        #expect(again.status == 1 && again.stderr.contains("was confirmed already"), "\(again.stderr)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("SIGINT while the run is armed ends the wait, not the window: exit 3, the deadline and who reverts said, the run still armed")
    func interruptEndsTheWaitOnly() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        try Self.readyToUpgrade(lab)
        let waiting = try InstalltopProcess(Self.upgradeArguments(lab, confirm: "10m"), in: lab.folder)
        _ = try await Self.window(of: lab) { Self.state($0) == "armed" }
        let run = try #require((try await Self.armedRun(lab)["run"] as? NSNumber)?.intValue)
        waiting.send(SIGINT)
        let result = try await waiting.finish(timeout: .seconds(60))
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("installtop: SIGINT: run \(run) stays armed: confirm it by ")
                && result.stderr.contains("`installtop apt revert \(run)` reverts it now"), "\(result.stderr)")
        #expect(Self.state(try await Self.window(of: lab) { _ in true }) == "armed")
        #expect(try lab.states() == ["lab-base": "ii 2.0", "lab-app": "ii 2.0", "lab-tool": "ii 2.0"])
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("An extension moves the deadline: the run outlives its first deadline, then a confirmation keeps it")
    func extensionMovesTheDeadline() async throws {
        let lab = try UndoLab()
        defer { lab.remove() }
        try Self.readyToUpgrade(lab)
        // 60 s to extend it in: with 4 s a loaded machine (load 20) took longer to start the
        // extending command, and with 20 s one at load 30 did too; the run was reverted first.
        let waiting = try InstalltopProcess(Self.upgradeArguments(lab, confirm: "60s"), in: lab.folder)
        let armed = try await Self.window(of: lab) { Self.state($0) == "armed" }
        let run = try #require((try await Self.armedRun(lab)["run"] as? NSNumber)?.intValue)
        let extended = try await installtop(["confirm", "--run", String(run), "--extend", "2m", "--history-db", lab.database], in: lab.folder)
        #expect(extended.status == 0 && extended.stdout.hasPrefix("run \(run): deadline moved to "), "\(extended.stdout)\(extended.stderr)")
        let moved = try await Self.window(of: lab) { ($0["deadline"] as? String) != (armed["deadline"] as? String) }
        // Past the first deadline (by the clock, polled), the run is still armed and at 2.0.
        let first = try Self.deadline(of: armed)
        try await waitUntil("the first deadline to pass") { Date() > first.addingTimeInterval(2) }
        #expect(Self.state(try await Self.window(of: lab) { _ in true }) == "armed")
        #expect(try lab.states()["lab-app"] == "ii 2.0")
        #expect(moved["deadline"] != nil)
        let confirmed = try await installtop(["confirm", "--run", String(run), "--history-db", lab.database], in: lab.folder)
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        let result = try await waiting.finish(timeout: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try lab.states()["lab-app"] == "ii 2.0")
        let events = try result.jsonEvents().map(\.name).filter { $0.hasPrefix("run.") }
        #expect(events == ["run.armed", "run.deadline", "run.confirmed"], "\(result.stdout)")
    }

    @Test("A --check that passes before and fails after (2.0's postinst breaks it) reverts at once with --revert-on-regression, before and after recorded")
    func regressedCheckRevertsAtOnce() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let breaking = UndoLab.packages("2.0").map { package in
            var package = package
            if package.name == "lab-app" { package.postinst = "touch \"$DPKG_ROOT/lab-broken\"" }
            return package
        }
        try Self.readyToUpgrade(lab, version: breaking)
        let check = "test ! -e \(lab.apt.root)/lab-broken"
        let started = ContinuousClock.now
        let result = try await installtop(Self.upgradeArguments(lab, confirm: "10m", extra: ["--check", check, "--revert-on-regression"]),
                                          in: lab.folder, timeout: .seconds(300))
        #expect(result.status == 7, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(ContinuousClock.now - started < .seconds(300), "reverted at once, not at the 10-minute deadline")
        #expect(result.stderr.contains("regressed: \(check): passed → failed: exit status 1"), "\(result.stderr)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"])
        #expect(try lab.apt.audit().isEmpty)
        let window = try await Self.window(of: lab) { _ in true }
        #expect(Self.state(window) == "reverted", "\(window)")
        // Other checks (this machine's ports) may regress beside it for reasons of their own: the
        // test's check is looked up by name.
        #expect((window["reason"] as? String)?.hasPrefix("a check regressed: ") == true, "\(window)")
        #expect((window["reason"] as? String)?.contains("\(check): passed → failed: exit status 1") == true, "\(window)")
        let regressions = try #require(window["regressions"] as? [[String: Any]])
        let ours = try #require(regressions.first { $0["check"] as? String == check }, "\(regressions)")
        #expect(ours["before"] as? String == "passed" && ours["after"] as? String == "failed: exit status 1", "\(regressions)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A check of the checks folder counts too; a regression without --revert-on-regression waits for the deadline and a confirmation keeps the run")
    func regressionWithoutRevertWaits() async throws {
        let lab = try UndoLab()
        defer { lab.remove() }
        let breaking = UndoLab.packages("2.0").map { package in
            var package = package
            if package.name == "lab-tool" { package.postinst = "touch \"$DPKG_ROOT/lab-broken\"" }
            return package
        }
        try Self.readyToUpgrade(lab, version: breaking)
        try FileManager.default.createDirectory(atPath: lab.folder.file("checks"), withIntermediateDirectories: true)
        let check = try lab.folder.write("checks/10-lab", "#!/bin/sh\ntest ! -e \(lab.apt.root)/lab-broken\n", executable: true)
        let waiting = try InstalltopProcess(Self.upgradeArguments(lab, confirm: "120s"), in: lab.folder)
        let window = try await Self.window(of: lab) { Self.state($0) == "armed" }
        let regressions = try #require(window["regressions"] as? [[String: Any]])
        #expect(regressions.contains { $0["check"] as? String == check && $0["after"] as? String == "failed: exit status 1" }, "\(regressions)")
        let run = try #require((try await Self.armedRun(lab)["run"] as? NSNumber)?.intValue)
        let confirmed = try await installtop(["confirm", "--run", String(run), "--history-db", lab.database], in: lab.folder)
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        let result = try await waiting.finish(timeout: .seconds(60))
        #expect(result.status == 0 && result.stderr.contains("a check regressed: it is reverted at the deadline unless confirmed"),
                "\(result.stderr)")
        #expect(try lab.states()["lab-tool"] == "ii 2.0")
    }

    @Test("confirm --run --check: the engine runs an armed run's checks again; broken since the arming, one regresses (exit 1, recorded, the run kept armed); mended, they pass (exit 0); a run never armed is refused")
    func checksRunAgainByHand() async throws {
        let lab = try UndoLab()
        defer { lab.remove() }
        try Self.readyToUpgrade(lab)
        let socket = lab.folder.file("engine.sock")
        let engine = try InstalltopProcess(["serve", "--socket", socket, "--history-db", lab.database, "--apt-config", lab.apt.configuration],
                                           in: lab.folder)
        try await waitUntil("serve to listen") { engine.stderr.contains("serving on") }
        // A site check that passes at the arming, and that the test breaks afterwards (as a
        // reboot could: only the checks run again see it).
        try FileManager.default.createDirectory(atPath: lab.folder.file("checks"), withIntermediateDirectories: true)
        let broken = lab.folder.file("site-broken")
        let check = try lab.folder.write("checks/10-site", "#!/bin/sh\ntest ! -e \(broken)\n", executable: true)
        let waiting = try InstalltopProcess(Self.upgradeArguments(lab, confirm: "300s"), in: lab.folder)
        let armed = try await Self.window(of: lab) { Self.state($0) == "armed" }
        #expect(armed["checkedAgainAt"] is NSNull, "\(armed)")
        let run = try #require((try await Self.armedRun(lab)["run"] as? NSNumber)?.intValue)

        try lab.folder.write("site-broken", "")
        let regressed = try await installtop(["confirm", "--run", String(run), "--check", "--socket", socket], in: lab.folder)
        #expect(regressed.status == 1, "\(regressed)")
        #expect(regressed.stdout.hasPrefix("run \(run): checks run again: \(check): passed → failed: exit status 1 regressed; it is undone at "),
                "\(regressed.stdout)\(regressed.stderr)")
        let recorded = try await Self.window(of: lab) { !($0["checkedAgainAt"] is NSNull) }
        #expect(Self.state(recorded) == "armed", "without --revert-on-regression the run waits for its deadline: \(recorded)")
        let regressions = try #require(recorded["regressions"] as? [[String: Any]])
        #expect(regressions.contains { $0["check"] as? String == check && $0["after"] as? String == "failed: exit status 1" }, "\(regressions)")

        try FileManager.default.removeItem(atPath: broken)
        let passed = try await installtop(["confirm", "--run", String(run), "--check", "--socket", socket], in: lab.folder)
        #expect(passed.status == 0 && passed.stdout == "run \(run): checks run again: passed\n", "\(passed)")

        let never = try await installtop(["confirm", "--run", "999", "--check", "--socket", socket], in: lab.folder)
        #expect(never.status == 1 && never.stderr.contains("run 999 was not armed"), "\(never)")
        let misused = try await installtop(["confirm", "--run", String(run), "--check", "--extend", "5m", "--socket", socket], in: lab.folder)
        #expect(misused.status == 2, "\(misused)")

        let confirmed = try await installtop(["confirm", "--run", String(run), "--history-db", lab.database], in: lab.folder)
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        _ = try await waiting.finish(timeout: .seconds(60))
        #expect(try lab.states()["lab-app"] == "ii 2.0")
        engine.send(SIGTERM)
        _ = try await engine.finish(timeout: .seconds(60))
    }

    @Test("The waiting command killed: the engine reverts at the deadline; an engine SIGKILLed in the window and started after it reverts at once")
    func engineRevertsAtTheDeadline() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        try Self.readyToUpgrade(lab)
        let serveArguments = ["serve", "--socket", lab.folder.file("engine.sock"), "--history-db", lab.database,
                              "--apt-config", lab.apt.configuration]

        // An engine up in the window, killed with SIGKILL, with the waiting command killed too.
        var engine: InstalltopProcess? = try InstalltopProcess(serveArguments, in: lab.folder)
        try await waitUntil("serve to listen") { engine?.stderr.contains("serving on") ?? false }
        // Long enough for the status checks and both kills under load: a waiting command still
        // alive at the deadline reverts the run itself.
        let waiting = try InstalltopProcess(Self.upgradeArguments(lab, confirm: "45s"), in: lab.folder)
        let armed = try await Self.window(of: lab) { Self.state($0) == "armed" }
        // The engine's status names the armed run and its deadline, as text and JSON.
        let armedRun = try #require((try await Self.armedRun(lab)["run"] as? NSNumber)?.intValue)
        let status = try await installtop(["status", "--socket", lab.folder.file("engine.sock")], in: lab.folder)
        #expect(status.stdout.contains("Armed runs (commit-confirmed; the engine reverts each at its deadline):\n  run \(armedRun): armed: confirm by "),
                "\(status.stdout)\(status.stderr)")
        let statusJSON = try await installtop(["status", "--json", "--socket", lab.folder.file("engine.sock")], in: lab.folder)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(statusJSON.stdout.utf8)) as? [String: Any])
        let listed = try #require((document["armed"] as? [[String: Any]])?.first)
        #expect((listed["run"] as? NSNumber)?.intValue == armedRun && listed["deadline"] as? String == armed["deadline"] as? String, "\(document)")
        waiting.send(SIGKILL)
        _ = try await waiting.finish(timeout: .seconds(30))
        engine?.send(SIGKILL)
        _ = try await engine?.finish(timeout: .seconds(30))
        engine = nil
        let deadline = try Self.deadline(of: armed)
        try await waitUntil("the deadline to pass") { Date() > deadline.addingTimeInterval(1) }
        #expect(Self.state(try await Self.window(of: lab) { _ in true }) == "armed", "nobody was left to revert it")
        #expect(try lab.states()["lab-app"] == "ii 2.0")

        // Started after the deadline: it reverts at once.
        let restarted = try InstalltopProcess(serveArguments, in: lab.folder)
        let window = try await Self.window(of: lab) { Self.state($0) == "reverted" || Self.state($0) == "expired" }
        #expect(Self.state(window) == "reverted", "\(window)\n\(restarted.stderr)")
        #expect((window["reason"] as? String)?.hasPrefix("no confirmation by its deadline") == true, "\(window)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"])
        #expect(try lab.apt.audit().isEmpty)
        try await waitUntil("serve to log the revert") { restarted.stderr.contains(": reverted") }
        #expect(restarted.stderr.contains("reverting it (installtop apt revert "), "\(restarted.stderr)")

        // A second window, reverted by the engine that runs through its deadline.
        try lab.apt.publish(UndoLab.packages("2.0"))
        let second = try InstalltopProcess(Self.upgradeArguments(lab, confirm: "4s"), in: lab.folder)
        _ = try await Self.window(of: lab) { Self.state($0) == "armed" }
        second.send(SIGKILL)
        _ = try await second.finish(timeout: .seconds(30))
        let reverted = try await Self.window(of: lab) { Self.state($0) == "reverted" || Self.state($0) == "expired" }
        #expect(Self.state(reverted) == "reverted", "\(reverted)\n\(restarted.stderr)")
        #expect(try lab.states()["lab-app"] == "ii 1.0")
        restarted.send(SIGTERM)
        _ = try await restarted.finish(timeout: .seconds(60))
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A revert never runs while another transaction holds dpkg's lock: it waits, says so, and reverts once it is free")
    func revertWaitsForDpkg() async throws {
        let lab = try UndoLab()
        defer { lab.remove() }
        try Self.readyToUpgrade(lab)
        // Long enough to take dpkg's lock before the deadline on a loaded machine.
        let waiting = try InstalltopProcess(Self.upgradeArguments(lab, confirm: "30s"), in: lab.folder)
        _ = try await Self.window(of: lab) { Self.state($0) == "armed" }
        let holder = try DpkgLockHolder(path: lab.apt.root + "/var/lib/dpkg/lock-frontend")
        var released = false
        defer { if !released { holder.release() } }
        try await waitUntil("the revert to say it waits for dpkg") { waiting.stderr.contains("dpkg is in use by another transaction (pid \(holder.pid))") }
        #expect(try lab.states()["lab-app"] == "ii 2.0")
        holder.release()
        released = true
        let result = try await waiting.finish(timeout: .seconds(120))
        #expect(result.status == 7, "\(result.stderr)")
        #expect(try lab.states()["lab-app"] == "ii 1.0")
    }

    @Test("Arming is refused, nothing run, exit 2, for a package whose version cannot be kept (dpkg lost its file list)")
    func refusedWhenAPackageCannotBeKept() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        try Self.readyToUpgrade(lab)
        try FileManager.default.removeItem(atPath: lab.apt.root + "/var/lib/dpkg/info/lab-tool.list")
        let runsBefore = try await lab.runs().count
        let result = try await installtop(Self.upgradeArguments(lab, confirm: "1m"), in: lab.folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("not armed, nothing was run: its revert could not be planned"), "\(result.stderr)")
        #expect(result.stderr.contains("lab-tool 1.0 cannot be kept for the revert: dpkg has no list of its files"), "\(result.stderr)")
        #expect(try lab.states()["lab-app"] == "ii 1.0")
        #expect(try await lab.runs().count == runsBefore)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A version that cannot be kept during the job (the history's undo folder is a file) stops the armed job before dpkg: nothing changed, not armed, said why")
    func unkeptVersionStopsBeforeDpkg() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        try Self.readyToUpgrade(lab)
        // Where the kept versions go is a file: the plan's checks pass, the keeping fails.
        let undo = URL(fileURLWithPath: lab.database).deletingLastPathComponent().appendingPathComponent("undo").path
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: undo).deletingLastPathComponent().path,
                                                withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: undo)
        #expect(FileManager.default.createFile(atPath: undo, contents: Data("not a folder".utf8)))
        let result = try await installtop(Self.upgradeArguments(lab, confirm: "1m"), in: lab.folder)
        #expect(result.status != 0 && result.status != 7, "\(result.stderr)")
        #expect(result.stderr.contains("is not armed: it cannot be undone"), "\(result.stderr)")
        #expect(result.stderr.contains("the job stopped before dpkg changed anything"), "\(result.stderr)")
        for package in ["lab-app", "lab-tool"] { #expect(try lab.states()[package] == "ii 1.0", "\(package)") }
        #expect(try lab.apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}

extension ISO8601DateFormatter {
    /// RFC 3339 with milliseconds, as `history --jobs --json` writes dates.
    nonisolated(unsafe) static let withFractions: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}
