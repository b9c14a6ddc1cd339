import APTTestSupport
import Foundation
import Glibc
import Testing

/// `installtop apt repair JOBRUN` through the real binary in a private apt root (issue 47, item
/// 3): the packages of a run whose files differ from dpkg's record are reinstalled at the version
/// dpkg has (never the archive's newer one), from the archive or, once the archive dropped it,
/// from the version installtop kept; the conffile edit stays; a repair changes no version, so
/// it stands in no undo's way. The host's packages are never touched (fingerprinted).
@Suite("installtop apt repair", .serialized)
struct APTRepairCommandTests {
    @Test("Damaged files of a run put back at the installed version, not the archive's newer one; the edited conffile kept; once repaired, nothing to repair")
    func repairFromTheArchive() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let apt = lab.apt
        try apt.publish(UndoLab.packages("1.0"))
        let install = try await lab.installtopAPT(["install", "lab-app", "lab-tool"])
        #expect(install.status == 0, "\(install.stderr)")
        let run = try await lab.newestRun()
        try UndoLab.editedConffile.write(toFile: apt.root + "/etc/lab-app.conf", atomically: true, encoding: .utf8)
        try apt.publish(UndoLab.packages("2.0"))
        try "damaged\n".write(toFile: apt.root + "/usr/share/lab-tool/data", atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: apt.root + "/usr/bin/lab-app")

        // Off a terminal without --yes: what was found, the plan, and nothing run.
        let asked = try await installtop(["apt", "repair", String(run), "--apt-config", apt.configuration, "--history-db", lab.database],
                                         in: lab.folder)
        #expect(asked.status == 1, "\(asked.stderr)")
        #expect(asked.stderr.contains("apt repair \(run): lab-tool 1.0: 1 file differs from what dpkg recorded (/usr/share/lab-tool/data); "
            + "reinstall from the archive"), "\(asked.stderr)")
        #expect(asked.stderr.contains("lab-app 1.0: 1 file dpkg recorded is missing (/usr/bin/lab-app)"), "\(asked.stderr)")
        #expect(!asked.stderr.contains("lab-base 1.0:"), "lab-base is undamaged: \(asked.stderr)")
        #expect(asked.stdout.contains("The following packages will be reinstalled:\n  lab-app 1.0 (reinstall)\n  lab-tool 1.0 (reinstall)"),
                "\(asked.stdout)")
        #expect(asked.stderr.contains("lab-tool is still not repaired"), "\(asked.stderr)")
        #expect(try !lab.apt.unverifiedFiles(of: "lab-tool").isEmpty)

        let repair = try await lab.installtopAPT(["repair", String(run)])
        #expect(repair.status == 0, "stdout: \(repair.stdout)\nstderr: \(repair.stderr)")
        let queued = try #require(try repair.jsonEvents().first { $0.name == "job.queued" })
        #expect(queued.string("name")?.hasPrefix("apt repair \(run) · 2 to reinstall") == true, "\(queued.fields)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"], "never the archive's 2.0")
        for package in ["lab-app", "lab-tool"] { #expect(try lab.apt.unverifiedFiles(of: package).isEmpty, "\(package)") }
        #expect(try lab.conffileIsEdited(), "a conffile is never damage: the edit stays")
        #expect(try apt.audit().isEmpty)
        let automatic = try TestCommand.run(["/usr/bin/apt-mark", "showauto"], environment: apt.environment).stdout
        #expect(automatic == "lab-base\n", "\(automatic)")

        // The repair changed no version: the install is still undoable, the repair itself is not.
        let runs = try await lab.runs()
        let repairRun = try #require(runs.first)
        let installRun = try #require(runs.first { ($0["run"] as? NSNumber)?.intValue == run })
        #expect(repairRun["notUndoableBecause"] as? String == "it only reinstalled packages: there is no other version to put back",
                "\(repairRun)")
        #expect(installRun["undoable"] as? Bool == true, "\(installRun)")

        let again = try await lab.installtopAPT(["repair", String(run)])
        #expect(again.status == 0 && again.stdout.contains("Nothing to repair: every package of run \(run) that dpkg has is fully installed"),
                "\(again.stdout)\(again.stderr)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("After the archive dropped the installed version: reinstalled from the version installtop kept; without it, refused (exit 2) changing nothing")
    func repairFromTheKeptVersion() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        let apt = lab.apt
        // 1.0 by installtop, upgraded to 2.0 (1.0 kept), 1.0 gone from the archive, then the undo
        // puts 1.0 back from the kept files: 1.0 is installed and no archive offers it.
        try apt.publish(UndoLab.packages("1.0"))
        #expect(try await lab.installtopAPT(["install", "lab-app", "lab-tool"]).status == 0)
        try apt.publish(UndoLab.packages("2.0"))
        let upgrade = try await lab.installtopAPT(["upgrade"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        let upgradeRun = try await lab.newestRun()
        try lab.dropVersionOne()
        let undo = try await lab.installtopAPT(["undo", String(upgradeRun)])
        #expect(undo.status == 0, "\(undo.stderr)")
        let undoRun = try await lab.newestRun()
        try "damaged\n".write(toFile: apt.root + "/usr/share/lab-tool/data", atomically: false, encoding: .utf8)

        let repair = try await lab.installtopAPT(["repair", String(undoRun)])
        #expect(repair.status == 0, "stdout: \(repair.stdout)\nstderr: \(repair.stderr)")
        #expect(repair.stderr.contains("lab-tool 1.0: 1 file differs from what dpkg recorded (/usr/share/lab-tool/data); "
            + "reinstall from the version installtop kept (\(lab.undoFolder)/\(upgradeRun)/lab-tool_1.0_all.deb)"), "\(repair.stderr)")
        #expect(try lab.apt.unverifiedFiles(of: "lab-tool").isEmpty)
        #expect(try lab.states()["lab-tool"] == "ii 1.0")
        // The repair stands in no undo's way: the undo of the undo is still there.
        let runs = try await lab.runs()
        #expect(runs.first { ($0["run"] as? NSNumber)?.intValue == undoRun }?["undoable"] as? Bool == true, "\(runs)")

        // Nothing holds 1.0 any more: the repair says so and runs nothing.
        try FileManager.default.removeItem(atPath: lab.undoFolder + "/\(upgradeRun)")
        try "damaged\n".write(toFile: apt.root + "/usr/share/lab-tool/data", atomically: false, encoding: .utf8)
        let refused = try await lab.installtopAPT(["repair", String(undoRun)])
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("lab-tool 1.0: 1 file differs from what dpkg recorded (/usr/share/lab-tool/data); nothing can "
            + "reinstall it: no archive apt knows offers 1.0"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was run: no damaged package can be had again"), "\(refused.stderr)")
        #expect(try await lab.runs().count == runs.count, "no run recorded")

        let unknown = try await lab.installtopAPT(["repair", "99"])
        #expect(unknown.status == 2 && unknown.stderr.contains("the history holds no run 99"), "\(unknown.stderr)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("dpkg left half-way (a postinst that fails): finished first with the forced stop's repair once confirmed; exit 5 with the command while the cause stays, 0 once it is gone")
    func finishesWhatDpkgLeftHalfWay() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        let cause = try APTKillPoint.publishWithFailingPostinst(apt)
        let arguments = ["--apt-config", apt.configuration, "--history-db", database]
        let install = try await installtop(["apt", "install"] + APTKillPoint.packages + ["--yes", "--plain"] + arguments, in: folder)
        #expect(install.status == 1, "\(install.stderr)")
        #expect(try apt.states()["lab-k2"]?.status == "iF", "the root is not left half-way: the test proves nothing")

        // Off a terminal without --yes: said, nothing run.
        let asked = try await installtop(["apt", "repair", "1", "--plain"] + arguments, in: folder)
        #expect(asked.status == 1, "\(asked.stdout)\(asked.stderr)")
        #expect(asked.stderr.contains("dpkg left 1 package half-way (lab-k2 half-configured at 1.0 (iF)); apt plans "
            + "nothing until it is finished: first dpkg --configure -a, then apt-get -f install"), "\(asked.stderr)")
        #expect(asked.stderr.contains("not run: confirm with --yes"), "\(asked.stderr)")
        #expect(try apt.states()["lab-k2"]?.status == "iF")

        // The cause still there: dpkg stays broken, and the command that repairs it is named.
        let broken = try await installtop(["apt", "repair", "1", "--plain", "--yes"] + arguments, in: folder)
        #expect(broken.status == 5, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stdout.contains("apt repair 1 · finish what dpkg left half-way: failed"), "its own job: \(broken.stdout)")
        #expect(broken.stderr.contains("apt repair 1: dpkg is left unfinished (lab-k2 half-configured at 1.0 (iF)): once the cause is fixed, run `"),
                "\(broken.stderr)")
        #expect(broken.stderr.contains("then `APT_CONFIG=\(apt.configuration) apt-get -f install`"), "\(broken.stderr)")

        try FileManager.default.removeItem(atPath: cause)
        let repaired = try await installtop(["apt", "repair", "1", "--plain", "--yes"] + arguments, in: folder)
        #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
        #expect(repaired.stdout.contains("apt repair 1 · finish what dpkg left half-way: succeeded"), "\(repaired.stdout)")
        #expect(repaired.stdout.contains("Nothing to repair: every package of run 1 that dpkg has is fully installed"), "\(repaired.stdout)")
        #expect(try apt.audit().isEmpty)
        #expect(try apt.states().mapValues { "\($0.status) \($0.version)" } == ["lab-k1": "ii 1.0", "lab-k2": "ii 1.0", "lab-k3": "ii 1.0"])
        // Each finishing is a run of the history: the failed one, then the one that finished dpkg.
        let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
        #expect(runs.compactMap { $0["name"] as? String }.filter { $0.hasPrefix("apt repair 1 · finish") }.count == 2, "\(runs)")
        #expect(runs.first?["result"] as? String == "succeeded", "\(runs.first ?? [:])")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
