import APTTestSupport
import Foundation
import Glibc
import Testing
import InstallDrivers

/// `installtop apt undo JOBRUN` through the real binary in a private apt root (APT_CONFIG): the
/// old versions come back from the kept files after the archive dropped them, as an uninstall
/// job that names the run it undoes, and the refusals change nothing. The host's packages are
/// never touched (fingerprinted).
@Suite("installtop apt undo", .serialized)
struct APTUndoTests {
    /// The lab at 1.0 (the conffile edited), upgraded to 2.0 by installtop, the 1.0 .debs gone
    /// from the archive; returns the upgrade's run id.
    private static func upgraded(_ lab: UndoLab) async throws -> Int {
        try lab.installVersionOne()
        try lab.apt.publish(UndoLab.packages("2.0"))
        try lab.dropVersionOne()
        let upgrade = try await lab.installtopAPT(["upgrade"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        return try await lab.newestRun()
    }

    @Test("An upgrade undone after the archive dropped 1.0: every package back at 1.0, the audit clean, the edit kept; the run marked undone")
    func undoAnUpgrade() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let (apt, folder, database) = (lab.apt, lab.folder, lab.database)
        let run = try await Self.upgraded(lab)
        let gone = try apt.aptGet(["install", "-s", "--allow-downgrades", "lab-app=1.0", "lab-base=1.0"])
        #expect(gone.status != 0, "apt alone cannot put 1.0 back: \(gone.stdout)")

        // Off a terminal without --yes: the plan, downgrades said as such, and nothing run.
        let asked = try await installtop(["apt", "undo", String(run), "--apt-config", apt.configuration, "--history-db", database], in: folder)
        #expect(asked.status == 1, "\(asked.stderr)")
        #expect(asked.stdout.contains("The following packages will be DOWNGRADED:\n"), "\(asked.stdout)")
        #expect(asked.stdout.contains("  lab-app 2.0 → 1.0"), "\(asked.stdout)")
        #expect(asked.stdout.contains(" to downgrade") && !asked.stdout.contains("to upgrade") && !asked.stdout.contains("to download"),
                "the counts say downgrades, from the kept files: \(asked.stdout)")
        // Sized as the kept files are on disk (it once said 1.1 kB for 19 MB kept).
        let keptFolder = lab.undoFolder + "/\(run)"
        let kept = try FileManager.default.contentsOfDirectory(atPath: keptFolder).filter { $0.hasSuffix(".deb") }
        let keptBytes = try kept.reduce(Int64(0)) { total, name in
            total + ((try FileManager.default.attributesOfItem(atPath: keptFolder + "/" + name)[.size] as? NSNumber)?.int64Value ?? 0)
        }
        #expect(kept.count == 3 && asked.stdout.contains("3 to downgrade · \(ByteCountText.text(keptBytes)) from the kept versions"),
                "\(kept) \(keptBytes) B: \(asked.stdout)")
        #expect(try apt.states()["lab-app"]?.version == "2.0")

        let undo = try await lab.installtopAPT(["undo", String(run)])
        #expect(undo.status == 0, "stdout: \(undo.stdout)\nstderr: \(undo.stderr)")
        let events = try undo.jsonEvents()
        let queued = try #require(events.first { $0.name == "job.queued" })
        #expect(queued.string("operation") == "uninstall")
        #expect(queued.int("undoOf") == run)
        let titles = (queued.fields["updates"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }.sorted()
        #expect(titles == ["lab-app 2.0 → 1.0", "lab-base 2.0 → 1.0", "lab-tool 2.0 → 1.0"], "\(titles)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"])
        #expect(try apt.audit().isEmpty)
        #expect(try lab.conffileIsEdited())
        // lab-base came in as lab-app's dependency: still automatic after the local .debs.
        let automatic = try TestCommand.run(["/usr/bin/apt-mark", "showauto"], environment: apt.environment).stdout
        #expect(automatic == "lab-base\n", "\(automatic)")

        let runs = try await lab.runs()
        let undoRun = try #require(runs.first)
        let original = try #require(runs.first { ($0["run"] as? NSNumber)?.intValue == run })
        let undoID = try #require((undoRun["run"] as? NSNumber)?.intValue)
        #expect((undoRun["undoOf"] as? NSNumber)?.intValue == run && undoRun["operation"] as? String == "uninstall")
        #expect((original["undoneBy"] as? NSNumber)?.intValue == undoID)
        #expect(original["undoable"] as? Bool == false && original["notUndoableBecause"] as? String == "undone already by run \(undoID)")

        // Undone once: a second undo is refused, changing nothing.
        let again = try await lab.installtopAPT(["undo", String(run)])
        #expect(again.status == 2 && again.stderr.contains("undone already by run \(undoID)"), "\(again.stderr)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Refusals change nothing and say what to do (exit 2): no such run, a later run changed a package, a package changed outside installtop")
    func refusals() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let apt = lab.apt
        let run = try await Self.upgraded(lab)

        let unknown = try await lab.installtopAPT(["undo", "99"])
        #expect(unknown.status == 2 && unknown.stderr.contains("the history holds no run 99"), "\(unknown.stderr)")

        try apt.aptGet(["remove", "-y", "lab-tool"], check: true)
        let outside = try await lab.installtopAPT(["undo", String(run)])
        #expect(outside.status == 2, "\(outside.stderr)")
        #expect(outside.stderr.contains("lab-tool was changed outside installtop since run \(run): dpkg has it not installed now"),
                "\(outside.stderr)")

        try apt.publish([TestPackage(name: "lab-tool", version: "3.0")])
        let later = try await lab.installtopAPT(["install", "lab-tool"])
        #expect(later.status == 0, "\(later.stderr)")
        let laterRun = try await lab.newestRun()
        let blocked = try await lab.installtopAPT(["undo", String(run)])
        #expect(blocked.status == 2 && blocked.stderr.contains("run \(laterRun) changed lab-tool again: undo run \(laterRun) first"), "\(blocked.stderr)")
        #expect(try apt.states().mapValues(\.version) == ["lab-base": "2.0", "lab-app": "2.0", "lab-tool": "3.0"])

        // Undoing the later run (an install: removed again) lets the first be undone.
        let undoLater = try await lab.installtopAPT(["undo", String(laterRun)])
        #expect(undoLater.status == 0, "\(undoLater.stderr)")
        #expect(try apt.states()["lab-tool"].map { $0.status != "ii" } ?? true, "lab-tool removed again")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    /// A stop mid-undo, caught while `gate` (lab-base or lab-app) is being put back: dpkg is
    /// given no further archive once what it unpacked can be configured, and nothing after it
    /// starts.
    @Test("A stop mid-undo ends at a package boundary: the package being put back finishes, the rest stay as they were, the audit clean",
          arguments: ["lab-app", "lab-base"])
    func stopMidUndo(gate: String) async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let apt = lab.apt
        // 1.0's preinst, which the rebuilt .debs carry back, waits at a gate once the test sets
        // it up: the undo is caught while dpkg begins on that package.
        let gated = UndoLab.packages("1.0").map { package in
            var package = package
            package.preinst = """
                if [ "$1" = upgrade ] && [ -e "$DPKG_ROOT/gate-$DPKG_MAINTSCRIPT_PACKAGE" ]; then
                  touch "$DPKG_ROOT/waiting"
                  while [ ! -e "$DPKG_ROOT/gate-open" ]; do sleep 0.05; done
                fi
                """
            return package
        }
        try apt.publish(gated)
        try apt.aptGet(["install", "-y", "lab-app", "lab-tool"], check: true)
        try apt.publish(UndoLab.packages("2.0"))
        try lab.dropVersionOne()
        let upgrade = try await lab.installtopAPT(["upgrade"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        let run = try await lab.newestRun()

        try "".write(toFile: apt.root + "/gate-\(gate)", atomically: true, encoding: .utf8)
        defer { try? "".write(toFile: apt.root + "/gate-open", atomically: true, encoding: .utf8) }
        let undo = try InstalltopProcess(["apt", "undo", String(run)] + lab.arguments, in: lab.folder)
        try await waitUntil("\(gate) of the undo at its gate; stderr: \(undo.stderr)") {
            FileManager.default.fileExists(atPath: apt.root + "/waiting")
        }
        undo.send(SIGINT)
        try await undo.waitForOutput("\"job.abortRequested\"")
        try "".write(toFile: apt.root + "/gate-open", atomically: true, encoding: .utf8)
        let result = try await undo.finish()

        let states = try lab.states()
        #expect(states[gate] == "ii 1.0", "the package being put back when the stop came finished: \(states)")
        #expect(states["lab-tool"] == "ii 2.0", "apt started nothing after it: \(states)")
        #expect(states.values.allSatisfy { $0.hasPrefix("ii ") }, "every package whole: \(states)")
        #expect(try apt.audit().isEmpty)
        // lab-app 1.0 needs lab-base 1.0, and lab-app 2.0 needs lab-base 2.0: with either caught,
        // the stop lands only once both are unpacked, where dpkg can configure them, so both go
        // back and apt's dependencies hold (apt-get check passes).
        #expect(states["lab-base"] == "ii 1.0" && states["lab-app"] == "ii 1.0", "\(states)")
        #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let events = try result.jsonEvents()
        let tool = try #require(events.first { $0.name == "update.completed" && $0.string("id") == "lab-tool" }, "\(result.stdout)")
        #expect(tool.string("result") == "aborted", "\(tool)")
        let original = try #require(try await lab.runs().first { ($0["run"] as? NSNumber)?.intValue == run })
        #expect(original["undoneBy"] is NSNull, "a stopped undo does not mark the run undone: \(String(describing: original))")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A remove job undone after the archive dropped the version: the package is back as it was, from its rebuilt kept .deb")
    func undoARemoval() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let apt = lab.apt
        try apt.publish(UndoLab.packages("1.0"))
        try apt.aptGet(["install", "-y", "lab-tool"], check: true)
        let removal = try await lab.installtopAPT(["remove", "lab-tool"])
        #expect(removal.status == 0, "\(removal.stderr)")
        try lab.dropVersionOne(of: ["lab-tool"])
        let run = try await lab.newestRun()

        let undo = try await lab.installtopAPT(["undo", String(run)])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(try lab.states()["lab-tool"] == "ii 1.0")
        #expect(try String(contentsOfFile: apt.root + "/usr/share/lab-tool/data", encoding: .utf8) == "tool 1.0\n")
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
