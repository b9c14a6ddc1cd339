import APTTestSupport
import Foundation
import Testing
import TestProcessSupport

/// `installtop hooks install --keep-for-undo` (issue 35, item 6; rule 37) in a private apt root:
/// the hooks go only into the root's `apt.conf.d` (APT_CONFIG), a raw `apt-get upgrade` is
/// observed and its replaced versions kept before dpkg ran, and `installtop apt undo` puts them
/// back. Without the option nothing is kept; a keeping that fails never fails apt. No engine
/// listens (the relay drops its lines). The host's packages are never touched (fingerprinted).
@Suite("installtop hooks install --keep-for-undo", .serialized)
struct KeepForUndoTests {
    private static func hookFile(_ apt: APTTestRoot) -> String { apt.root + "/etc/apt/apt.conf.d/99installtop-observe" }

    /// The lab at 1.0 (the conffile edited, apt's cache clean) and the hooks installed with
    /// `extra` options; 2.0 published, with `provingKept` failing to upgrade what the hooks did
    /// not keep into the lab's undo folder first.
    private static func prepared(_ lab: UndoLab, hooks extra: [String], provingKept: Bool = false) async throws {
        try lab.installVersionOne()
        let hooks = try await installtop(["hooks", "install", "--apt-config", lab.apt.configuration, "--socket", lab.folder.file("engine.sock")]
                                         + extra, in: lab.folder)
        #expect(hooks.status == 0, "\(hooks.stdout) \(hooks.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/etc/apt/apt.conf.d/99installtop-observe"), "the host's apt is untouched")
        try lab.apt.publish(UndoLab.packages("2.0", provingKeptIn: provingKept ? lab.undoFolder : nil))
    }

    @Test("A raw apt-get upgrade observed with --keep-for-undo: 1.0 kept before dpkg (2.0's preinst checks), recorded as an undoable run, undone by installtop apt undo")
    func observedUpgradeUndone() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let (apt, folder, database) = (lab.apt, lab.folder, lab.database)
        try await Self.prepared(lab, hooks: ["--keep-for-undo", "--history-db", database], provingKept: true)
        let text = try String(contentsOfFile: Self.hookFile(apt), encoding: .utf8)
        #expect(text.contains(" hooks keep begin --history-db '\(database)' || cat >/dev/null\";"), "\(text)")
        let status = try await installtop(["hooks", "status", "--apt-config", apt.configuration, "--socket", folder.file("engine.sock")], in: folder)
        #expect(status.stdout.contains("undo:      every apt run keeps what it replaces, recorded in \(database)\n"), "\(status.stdout)")

        let upgrade = try apt.aptGet(["upgrade", "-y"])
        #expect(upgrade.status == 0, "\(upgrade.stdout)\n\(upgrade.stderr)")
        #expect(upgrade.stdout.contains("3 of 3 replaced versions kept for undo") || upgrade.stderr.contains("3 of 3 replaced versions kept for undo"),
                "\(upgrade.stdout)\n\(upgrade.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0", "lab-tool": "2.0"])
        // The archive drops 1.0.
        try lab.dropVersionOne()

        let runs = try await lab.runs()
        #expect(runs.count == 1, "\(runs)")
        let observed = try #require(runs.first)
        let run = try #require((observed["run"] as? NSNumber)?.intValue)
        #expect((observed["name"] as? String)?.hasPrefix("apt-get upgrade -y") == true, "\(observed)")
        #expect(observed["kind"] as? String == "apt" && observed["result"] as? String == "succeeded", "\(observed)")
        #expect(observed["undoable"] as? Bool == true, "\(observed)")
        let packages = try #require(observed["packages"] as? [[String: Any]])
        #expect(packages.compactMap { $0["name"] as? String }.sorted() == ["lab-app", "lab-base", "lab-tool"])
        for name in ["lab-base", "lab-app", "lab-tool"] {
            let kept = database.replacingOccurrences(of: "history.sqlite3", with: "undo/\(run)/\(name)_1.0_all.deb")
            #expect(FileManager.default.fileExists(atPath: kept), "\(kept)")
        }

        let undo = try await lab.installtopAPT(["undo", String(run)])
        #expect(undo.status == 0, "stdout: \(undo.stdout)\nstderr: \(undo.stderr)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"])
        #expect(try apt.audit().isEmpty)
        #expect(try lab.conffileIsEdited())
        // installtop's own apt run is not kept again by the hooks: two runs, the undo naming the first.
        let after = try await lab.runs()
        #expect(after.count == 2, "\(after)")
        let undoID = try #require((after.first?["run"] as? NSNumber)?.intValue)
        #expect((after.first?["undoOf"] as? NSNumber)?.intValue == run)
        #expect((after.last?["undoneBy"] as? NSNumber)?.intValue == undoID)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Without --keep-for-undo nothing changes: no keeping hook, no history, no kept file")
    func withoutTheOptionNothingIsKept() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let (apt, folder) = (lab.apt, lab.folder)
        let home = folder.file("home")
        try await Self.prepared(lab, hooks: [])
        let text = try String(contentsOfFile: Self.hookFile(apt), encoding: .utf8)
        #expect(!text.contains("keep"), "\(text)")
        let status = try await installtop(["hooks", "status", "--apt-config", apt.configuration, "--socket", folder.file("engine.sock")], in: folder)
        #expect(status.stdout.contains("undo:      nothing kept for observed apt runs"), "\(status.stdout)")
        let upgrade = try TestCommand.run(["/usr/bin/apt-get", "upgrade", "-y"],
                                          environment: apt.environment.merging(["HOME": home, "XDG_STATE_HOME": home + "/state"]) { _, new in new })
        #expect(upgrade.status == 0, "\(upgrade.stdout)\n\(upgrade.stderr)")
        #expect(!upgrade.stderr.contains("installtop"), "\(upgrade.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0", "lab-tool": "2.0"])
        #expect(!FileManager.default.fileExists(atPath: home), "nothing written for a history")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A keeping that fails (the history cannot be opened) never fails apt's run: it says why and apt goes on")
    func failedKeepingDoesNotFailApt() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let apt = lab.apt
        // A file where the history's folder should be.
        try "".write(toFile: lab.folder.file("blocker"), atomically: true, encoding: .utf8)
        try await Self.prepared(lab, hooks: ["--keep-for-undo", "--history-db", lab.folder.file("blocker/history.sqlite3")])
        let upgrade = try apt.aptGet(["upgrade", "-y"])
        #expect(upgrade.status == 0, "\(upgrade.stdout)\n\(upgrade.stderr)")
        #expect((upgrade.stdout + upgrade.stderr).contains("installtop: nothing kept for undo"), "\(upgrade.stdout)\n\(upgrade.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0", "lab-tool": "2.0"])
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Kept by the hooks and watched by an engine on the same history: the engine's observed run is a twin that blocks nothing; the kept run is undone")
    func keptRunWithAnEngineWatching() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let fixture = try DaemonFixture(history: true)
        defer { fixture.folder.remove() }
        let folder = fixture.folder
        let database = try #require(fixture.historyDatabase)
        try await fixture.start()
        try apt.publish(UndoLab.packages("1.0"))
        try apt.aptGet(["install", "-y", "lab-app", "lab-tool"], check: true)
        let hooks = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket,
                                          "--keep-for-undo", "--history-db", database], in: folder)
        #expect(hooks.status == 0, "\(hooks.stdout) \(hooks.stderr)")
        try apt.publish(UndoLab.packages("2.0"))

        let upgrade = try apt.aptGet(["upgrade", "-y"])
        #expect(upgrade.status == 0, "\(upgrade.stdout)\n\(upgrade.stderr)")
        var runs: [[String: Any]] = []
        let recorded = try await eventually {
            runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
            return runs.count == 2 && runs.allSatisfy { $0["result"] as? String == "succeeded" }
        }
        #expect(recorded, "the kept run and the engine's observed run, both ended: \(runs)")
        let kept = try #require(runs.first { ($0["name"] as? String)?.hasSuffix("(observed, kept for undo)") == true }, "\(runs)")
        let twin = try #require(runs.first { ($0["name"] as? String)?.hasSuffix("(observed, kept for undo)") == false }, "\(runs)")
        let run = try #require((kept["run"] as? NSNumber)?.intValue)
        #expect(kept["undoable"] as? Bool == true, "\(kept)")
        #expect(twin["notUndoableBecause"] as? String == "the same transaction as run \(run), which kept its versions: undo run \(run)",
                "\(twin)")

        let undo = try await installtop(["apt", "undo", String(run), "--yes", "--json", "--apt-config", apt.configuration,
                                         "--history-db", database], in: folder, timeout: .seconds(180))
        #expect(undo.status == 0, "stdout: \(undo.stdout)\nstderr: \(undo.stderr)")
        #expect(try apt.states().mapValues { "\($0.status) \($0.version)" }
                    == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"])
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
