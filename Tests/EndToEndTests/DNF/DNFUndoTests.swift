import APTTestSupport
import Foundation
import Glibc
import InstallDrivers
import Testing

/// The history of dnf runs and their undo, through the real binary in private installroots:
/// versions kept before rpm runs (from the repository, or rebuilt once it dropped them), undo
/// from them, its refusals, and a run settled from the rpm database after installtop was
/// killed. Nothing of the host's rpm or dnf state changes (fingerprinted).
@Suite("installtop dnf: history and undo", .serialized)
struct DNFUndoTests {
    @Test("installtop killed while rpm runs a %post: rpm goes on to its end, and the next look at the history settles the run from the rpm database")
    func installtopKilledDuringRPM() async throws {
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        let (root, folder, database) = (lab.root, lab.folder, lab.database)
        func newestRun() async throws -> [String: Any] { try #require(try await lab.runs().first) }

        let process = try InstalltopProcess(["dnf", "install", "lab-slow", "lab-print", "--yes", "--json", "--history-db", database]
                                            + DNFEndToEnd.rootArguments(root), in: folder)
        try await waitUntil("rpm runs lab-slow's %post") { process.stdout.contains(#""message":"running %post""#) }
        let helper = try #require(DNFEndToEnd.child(of: process.pid, running: "installtop-dnf.py"), "the helper runs under installtop")
        defer {
            // Whatever happened: the helper's %post may end, and nothing of it is left running.
            _ = FileManager.default.createFile(atPath: root.root + DNFTestLab.slowKnob, contents: Data())
            if DNFEndToEnd.isRunning(helper) { kill(helper, SIGKILL) }
        }
        #expect(kill(process.pid, SIGKILL) == 0)
        _ = try? await process.finish(timeout: .seconds(30))

        // rpm still runs in the root: the run is left as it is.
        #expect(try await newestRun()["result"] is NSNull)
        #expect(FileManager.default.createFile(atPath: root.root + DNFTestLab.slowKnob, contents: Data()))
        try await waitUntil("the helper ended") { !DNFEndToEnd.isRunning(helper) }
        let settled = try await newestRun()
        // The helper outlived installtop and removed its own folder (installtop could not).
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.file("tmp"))) == [], "nothing left in TMPDIR")
        let rows = try await lab.installtop(["history", "--json"])
        #expect(settled["result"] as? String == "succeeded", "\(settled)\n\(rows.stdout)")
        let packages = (settled["packages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(Set(packages) == ["lab-slow", "lab-print"], "\(settled)")
        #expect(settled["installRoot"] as? String == root.root)
        #expect(root.installedVersions(of: "lab-slow") == ["1.0-1"] && root.installedVersions(of: "lab-print") == ["1.0-1"])
        #expect(rows.stdout.contains("the engine that ran it stopped before the transaction ended; dnf and rpm went on to its end"), "\(rows.stdout)")
    }

    @Test("installtop and its helper killed together while rpm runs a %post: the settled run never says dnf and rpm went on, but that dnf's history has the transaction unfinished")
    func installtopAndHelperKilledTogether() async throws {
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        let (root, folder, database) = (lab.root, lab.folder, lab.database)

        let process = try InstalltopProcess(["dnf", "install", "lab-slow", "lab-print", "--yes", "--json", "--history-db", database]
                                            + DNFEndToEnd.rootArguments(root), in: folder)
        var helper: pid_t?
        defer {
            // Whatever happened: lab-slow's %post may end, and nothing of the job is left running.
            _ = FileManager.default.createFile(atPath: root.root + DNFTestLab.slowKnob, contents: Data())
            if let helper, DNFEndToEnd.isRunning(helper) { kill(helper, SIGKILL) }
            if DNFEndToEnd.isRunning(process.pid) { kill(process.pid, SIGKILL) }
        }
        try await waitUntil("rpm runs lab-slow's %post") { process.stdout.contains(#""message":"running %post""#) }
        let found = try #require(DNFEndToEnd.child(of: process.pid, running: "installtop-dnf.py"), "the helper runs under installtop")
        helper = found
        // installtop first: killed first, the helper would be a kill installtop saw and settled itself.
        #expect(kill(process.pid, SIGKILL) == 0)
        #expect(kill(found, SIGKILL) == 0)
        _ = try? await process.finish(timeout: .seconds(30))
        try await waitUntil("the helper ended") { !DNFEndToEnd.isRunning(found) }

        // The locks are free once the kernel has ended both: a reader settles the run. Polled:
        // once, at load 20-38, the first reader found the run not yet settled (the cause is not
        // established); a run that never settles still fails here.
        var settled: [String: Any] = [:]
        try await waitUntil("a reader to settle the run", timeout: .seconds(60)) {
            settled = try #require(try await lab.runs().first)
            return !(settled["result"] is NSNull)
        }
        let rows = try await lab.installtop(["history", "--json"])
        #expect(!rows.stdout.contains("went on"), "\(rows.stdout)")
        #expect(rows.stdout.contains("the engine that ran it stopped before the transaction ended, and dnf and rpm did not reach its end either: "
                                     + "dnf's history in the root has it begun and never ended"), "\(rows.stdout)")
        // rpm records a package before its %post: lab-slow is in the database, its %post cut.
        #expect(root.installedVersions(of: "lab-slow") == ["1.0-1"])
    }

    @Test("Undo after the repository dropped the old versions: the upgrade kept both rpms, its undo downgrades both from them, then the install's undo removes them; one entry each, the history says who undid what")
    func undoFromKeptRPMs() async throws {
        let host = HostRPMFingerprint()
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        let (root, folder) = (lab.root, lab.folder)

        let install = try await lab.dnf(["install", "lab-app"])
        #expect(install.status == 0, "\(install.stderr)")
        try root.publish([DNFTestLab.library("2.0"), DNFTestLab.application("2.0")])
        let upgrade = try await lab.dnf(["upgrade"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        // The archive moved on: 1.0 is no longer offered.
        try root.withdraw(DNFTestLab.library("1.0"))
        try root.withdraw(DNFTestLab.application("1.0"))

        var listed = try await lab.runs()
        let upgradeRun = try #require(listed.first)
        #expect(upgradeRun["kind"] as? String == "dnf")
        #expect(upgradeRun["installRoot"] as? String == root.root)
        #expect(upgradeRun["undoable"] as? Bool == true, "\(upgradeRun)")
        let upgradeID = try #require(upgradeRun["run"] as? Int)
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.file("undo/\(upgradeID)")).sorted()
        #expect(kept == ["lab-app-1.0-1.noarch.rpm", "lab-lib-1.0-1.noarch.rpm"])
        // The install before it changed lab-app again later: the newest run comes first.
        let installRun = try #require(listed.first { $0["run"] as? Int != upgradeID })
        #expect((installRun["notUndoableBecause"] as? String)?.contains("undo run \(upgradeID) first") == true, "\(installRun)")

        let undo = try await lab.dnf(["undo", String(upgradeID)])
        #expect(undo.status == 0, "\(undo.stderr)")
        let events = try undo.jsonEvents()
        let queued = try #require(events.first { $0.name == "job.queued" })
        #expect(queued.string("name")?.hasPrefix("dnf undo \(upgradeID)") == true)
        let titles = (queued.fields["updates"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(Set(titles) == ["lab-lib 2.0-1 → 1.0-1", "lab-app 2.0-1 → 1.0-1"], "\(titles)")
        #expect(DNFEndToEnd.completed(events) == ["lab-lib": "succeeded", "lab-app": "succeeded"])
        #expect(root.installedVersions(of: "lab-app") == ["1.0-1"] && root.installedVersions(of: "lab-lib") == ["1.0-1"])

        listed = try await lab.runs()
        #expect(listed.first { $0["run"] as? Int == upgradeID }?["undoneBy"] as? Int != nil, "\(listed)")
        let again = try await lab.dnf(["undo", String(upgradeID)])
        #expect(again.status == 2 && again.stderr.contains("undone already"), "\(again.stderr)")

        // Now the install can be undone: both packages go, in the root the run recorded.
        let installID = try #require(installRun["run"] as? Int)
        let elsewhere = try await lab.installtop(["dnf", "undo", String(installID), "--yes", "--installroot", folder.path])
        #expect(elsewhere.status == 2 && elsewhere.stderr.contains("run \(installID) acted on the root \(root.root), not on \(folder.path)"),
                "\(elsewhere.stderr)")
        let removal = try await lab.installtop(["dnf", "undo", String(installID), "--yes", "--json"])
        #expect(removal.status == 0, "\(removal.stderr)")
        #expect(root.installedVersions(of: "lab-app").isEmpty && root.installedVersions(of: "lab-lib").isEmpty)
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("The repository had dropped 1.0 before the upgrade: the upgrade rebuilt both rpms from the installed files (the edited configuration as edited), and the undo puts them back, rpm -V clean, saying what rpm now takes for the package's own")
    func undoFromRebuiltRPMs() async throws {
        let host = HostRPMFingerprint()
        let lab = try DNFHistoryLab([DNFTestLab.library("1.0"), DNFTestLab.printingApplication("1.0")])
        defer { lab.remove() }
        let (root, database) = (lab.root, lab.database)
        #expect(try await lab.dnf(["install", "lab-app"]).status == 0)
        let configuration = root.root + DNFTestLab.configuration
        try "level = 1.0\nedited = yes\n".write(toFile: configuration, atomically: false, encoding: .utf8)
        try root.withdraw(DNFTestLab.library("1.0"))
        try root.withdraw(DNFTestLab.printingApplication("1.0"))
        try root.publish([DNFTestLab.library("2.0"), DNFTestLab.printingApplication("2.0")])
        let upgrade = try await lab.dnf(["upgrade"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        let upgradeRun = try #require(try await lab.runs().first)
        #expect(upgradeRun["undoable"] as? Bool == true, "\(upgradeRun)")
        let id = try #require(upgradeRun["run"] as? Int)
        let sources = SystemCommand.run(["/usr/bin/sqlite3", database, "SELECT package || ' ' || source FROM keptVersion ORDER BY package"])
        #expect(sources.stdout == "lab-app rebuilt\nlab-lib rebuilt\n", "\(sources.stdout)\(sources.stderr)")

        let undo = try await lab.dnf(["undo", String(id), "--json-logs"])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(root.installedVersions(of: "lab-app") == ["1.0-1"] && root.installedVersions(of: "lab-lib") == ["1.0-1"])
        // The rebuilt package's %post ran as the original's does.
        #expect(try undo.jsonEvents().contains { $0.string("line") == "lab-app 1.0 set up" }, "\(undo.stdout)")
        #expect(DNFEndToEnd.verified(root, "lab-app").isEmpty, "rpm -V after the undo")
        #expect(try String(contentsOfFile: configuration, encoding: .utf8) == "level = 1.0\nedited = yes\n")
        #expect(undo.stderr.contains("lab-app 1.0-1 came back from an rpm rebuilt with /etc/lab-app.conf as edited: rpm now takes the edit for the package's own"),
                "\(undo.stderr)")
        #expect(DNFEndToEnd.verified(root, "lab-lib").isEmpty)
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("A package changed outside installtop since the run: its undo is refused with what rpm has now, nothing changed")
    func undoRefusedAfterOutsideChange() async throws {
        let lab = try DNFHistoryLab()
        defer { lab.remove() }
        let (root, folder) = (lab.root, lab.folder)
        let install = try await lab.dnf(["install", "lab-print"])
        #expect(install.status == 0, "\(install.stderr)")
        let removal = try await installtop(["dnf", "remove", "lab-print", "--yes", "--json", "--no-history"] + DNFEndToEnd.rootArguments(root), in: folder)
        #expect(removal.status == 0, "\(removal.stderr)")
        let undo = try await lab.installtop(["dnf", "undo", "1", "--yes"] + DNFEndToEnd.rootArguments(root))
        #expect(undo.status == 2)
        #expect(undo.stderr.contains("lab-print was changed outside installtop since run 1: the rpm database has none installed now"), "\(undo.stderr)")
    }
}
