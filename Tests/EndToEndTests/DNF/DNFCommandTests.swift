import APTTestSupport
import Foundation
import Glibc
import InstallDrivers
import Testing

/// `installtop dnf …` through the real binary, in private installroots of lab rpms: the plan,
/// the refusals, a whole transaction in JSON checked against the rpm database, scriptlets,
/// an honest stop, the history. Nothing of the host's rpm or dnf state changes (fingerprinted).
@Suite("installtop dnf", .serialized)
struct DNFCommandTests {
    private func lab(_ recipes: [RPMPackageRecipe] = DNFTestLab.first) throws -> PrivateDNFRoot {
        try PrivateDNFRoot.requireTools()
        let root = try PrivateDNFRoot(temporaryWithPrefix: "itop-dnf")
        do { try root.publish(recipes) } catch {
            root.remove()
            throw error
        }
        return root
    }

    private func rootArguments(_ root: PrivateDNFRoot) -> [String] {
        ["--installroot", root.root, "--releasever", root.releaseVersion]
    }

    private func completed(_ events: [JSONEvent]) -> [String: String] {
        Dictionary(events.filter { $0.name == "update.completed" }.compactMap { event in event.string("id").map { ($0, event.string("result") ?? "?") } },
                   uniquingKeysWith: { _, last in last })
    }

    @Test("--json: one update per package in dnf's order, versions in the titles, every result as the rpm database says")
    func installAndUpgrade() async throws {
        let host = HostRPMFingerprint()
        let root = try lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let install = try await installtop(["dnf", "install", "lab-app", "--yes", "--json", "--no-history"] + rootArguments(root), in: folder)
        #expect(install.status == 0, "\(install.stderr)")
        var events = try install.jsonEvents()
        let queued = try #require(events.first { $0.name == "job.queued" })
        let updates = queued.fields["updates"] as? [[String: Any]] ?? []
        // dnf's order: rpm orders a transaction only once its packages are downloaded.
        #expect(Set(updates.compactMap { $0["id"] as? String }) == ["lab-lib", "lab-app"])
        #expect(Set(updates.compactMap { $0["title"] as? String }) == ["lab-lib 1.0-1", "lab-app 1.0-1"])
        #expect(queued.string("packageTool") == "dnf")
        #expect(completed(events) == ["lab-lib": "succeeded", "lab-app": "succeeded"])
        #expect(root.installedVersions(of: "lab-app") == ["1.0-1"] && root.installedVersions(of: "lab-lib") == ["1.0-1"])

        try root.publish([DNFTestLab.library("2.0"), DNFTestLab.application("2.0")])
        let upgrade = try await installtop(["dnf", "upgrade", "--yes", "--json", "--no-history"] + rootArguments(root), in: folder)
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        events = try upgrade.jsonEvents()
        let titles = (events.first { $0.name == "job.queued" }?.fields["updates"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(Set(titles) == ["lab-lib 1.0-1 → 2.0-1", "lab-app 1.0-1 → 2.0-1"])
        #expect(completed(events) == ["lab-lib": "succeeded", "lab-app": "succeeded"])
        var last: [Int: Double] = [:]
        for event in events where event.name == "progress" {
            guard let index = event.index, let percent = event.double("updatePercent") else { continue }
            #expect(percent >= last[index, default: 0], "update \(index)'s bar went down: \(event)")
            last[index] = percent
        }
        // One entry each: the cleanup of 1.0 ran (no duplicates).
        #expect(root.installedVersions(of: "lab-app") == ["2.0-1"] && root.installedVersions(of: "lab-lib") == ["2.0-1"])
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("Off a terminal without --yes: the plan in dnf's shape, nothing run, exit 1; the refusals exit 2")
    func planAndRefusals() async throws {
        let host = HostRPMFingerprint()
        let root = try lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let plan = try await installtop(["dnf", "install", "lab-app"] + rootArguments(root), in: folder)
        #expect(plan.status == 1)
        #expect(plan.stdout.contains("Installing:\n  lab-app 1.0-1 [noarch, lab]\n  lab-lib 1.0-1 [noarch, lab]\n"), "\(plan.stdout)")
        #expect(plan.stdout.contains("2 to install"), "\(plan.stdout)")
        #expect(plan.stderr.contains("--yes"))
        #expect(root.installedVersions(of: "lab-lib").isEmpty, "nothing was installed")

        let unknown = try await installtop(["dnf", "install", "lab-nosuch", "--yes"] + rootArguments(root), in: folder)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("nothing was run") && unknown.stderr.contains("lab-nosuch"), "\(unknown.stderr)")

        let here = try await installtop(["dnf", "install", "lab-app", "--yes"], in: folder)
        #expect(here.status == 2)
        #expect(here.stderr.contains("this system's packages are dpkg's"), "\(here.stderr)")

        let nobody = try NobodyInstalltop()
        defer { nobody.remove() }
        let notRoot = try await nobody.run(["dnf", "install", "lab-app", "--yes"] + rootArguments(root), in: folder, runtimeDirectory: nil,
                                           machineSocket: nil)
        #expect(notRoot.status == 2 && notRoot.stderr.contains("changing packages needs root"), "\(notRoot.stderr) \(notRoot.stdout)")

        let nothing = try await installtop(["dnf", "remove", "lab-app", "--yes"] + rootArguments(root), in: folder)
        #expect(nothing.status == 0 && nothing.stdout.contains("Nothing to remove"), "\(nothing.stdout) \(nothing.stderr)")
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("Scriptlets: output under its package, a failing %post is the package's error, dnf's reboot rule, removal with what it needed")
    func scriptletsRebootAndRemoval() async throws {
        let root = try lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let run = try await installtop(["dnf", "install", "lab-print", "lab-fail", "linux-firmware", "--yes", "--json", "--json-logs", "--no-history"]
                                       + rootArguments(root), in: folder)
        let events = try run.jsonEvents()
        let printer = try #require((events.first { $0.name == "job.queued" }?.fields["updates"] as? [[String: Any]])?
            .firstIndex { $0["id"] as? String == "lab-print" })
        let output = events.filter { $0.name == "log" }
        #expect(output.contains { $0.index == printer && $0.string("line") == "lab-print: ready" }, "\(output)")
        let results = completed(events)
        #expect(results["lab-print"] == "succeeded")
        #expect(results["lab-fail"] == "succeededWithErrors", "rpm keeps a package whose %post failed: \(results)")
        let firmware = try #require(events.first { $0.name == "update.completed" && $0.string("id") == "linux-firmware" })
        #expect(firmware.bool("rebootRequired") == true)
        #expect(run.status == 1, "a package succeeded with errors: \(run.stderr)")
        #expect(root.installedVersions(of: "lab-fail") == ["1.0-1"])

        _ = try await installtop(["dnf", "install", "lab-app", "--yes", "--no-history"] + rootArguments(root), in: folder)
        let removal = try await installtop(["dnf", "remove", "lab-app", "--yes", "--json", "--no-history"] + rootArguments(root), in: folder)
        #expect(removal.status == 0, "\(removal.stderr)")
        let removed = try removal.jsonEvents()
        #expect(removed.first { $0.name == "job.queued" }?.string("operation") == "uninstall")
        #expect(completed(removed) == ["lab-app": "succeeded", "lab-lib": "succeeded"], "the library it needed goes too")
        #expect(root.installedVersions(of: "lab-lib").isEmpty && root.installedVersions(of: "lab-app").isEmpty)
    }

    @Test("A stop while rpm runs waits for the transaction's end, a forced one is refused; the rpm database has one entry")
    func stopDuringRPM() async throws {
        let root = try lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let process = try InstalltopProcess(["dnf", "install", "lab-slow", "lab-print", "--yes", "--json", "--no-history"] + rootArguments(root),
                                            in: folder)
        // lab-slow's %post waits for the knob: rpm's transaction runs until the test says.
        try await waitUntil("rpm runs lab-slow's %post") { process.stdout.contains(#""message":"running scriptlets""#) }
        process.send(SIGINT)
        // The job's words, not the stop note job.queued carries ("rpm cannot be cut safely").
        try await process.waitForOutput("stop requested: rpm's transaction is running")
        process.send(SIGINT)
        try await process.waitForOutput("forced stop refused")
        #expect(FileManager.default.createFile(atPath: root.root + DNFTestLab.slowKnob, contents: Data()))
        let result = try await process.finish()
        let events = try result.jsonEvents()
        #expect(completed(events)["lab-slow"] == "succeeded", "\(completed(events))")
        #expect(root.installedVersions(of: "lab-slow") == ["1.0-1"], "one entry: rpm was not cut")
        #expect(result.status == 3, "aborted: \(result.stderr)")
    }

    @Test("The helper killed from outside in a %post: a forced stop, the package rpm had recorded kept with that word, the rest not started")
    func helperKilledFromOutside() async throws {
        let root = try lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let process = try InstalltopProcess(["dnf", "install", "lab-slow", "lab-print", "--yes", "--json", "--no-history"] + rootArguments(root),
                                            in: folder)
        try await waitUntil("rpm runs lab-slow's %post") { process.stdout.contains(#""message":"running scriptlets""#) }
        let helper = try #require(Self.child(of: process.pid, running: "installtop-dnf.py"), "the helper runs under installtop")
        #expect(kill(helper, SIGKILL) == 0)
        let result = try await process.finish(timeout: .seconds(60))
        #expect(result.status == 3, "stopped by force: \(result.stderr)")
        let events = try result.jsonEvents()
        let results = completed(events)
        #expect(results["lab-slow"] == "succeededWithErrors", "\(results)")
        // rpm orders lab-print after lab-slow or before it; either way it is settled from the database.
        #expect(results["lab-print"] == (root.installedVersions(of: "lab-print").isEmpty ? "aborted" : "succeeded"), "\(results)")
        #expect(root.installedVersions(of: "lab-slow") == ["1.0-1"], "one entry")
        #expect(events.contains { ($0.string("jobMessage") ?? "").contains("killed by signal 9 during rpm's transaction") })
        // The helper's private home and files were in installtop's folder for it, removed at the end.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.file("tmp"))) == [], "nothing left in TMPDIR")
    }

    @Test("installtop killed while rpm runs a %post: rpm goes on to its end, and the next look at the history settles the run from the rpm database")
    func installtopKilledDuringRPM() async throws {
        let root = try lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        func newestRun() async throws -> [String: Any] {
            let listed = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder)
            return try #require(try listed.jsonObjects().first, "\(listed.stdout)\(listed.stderr)")
        }

        let process = try InstalltopProcess(["dnf", "install", "lab-slow", "lab-print", "--yes", "--json", "--history-db", database]
                                            + rootArguments(root), in: folder)
        try await waitUntil("rpm runs lab-slow's %post") { process.stdout.contains(#""message":"running scriptlets""#) }
        let helper = try #require(Self.child(of: process.pid, running: "installtop-dnf.py"), "the helper runs under installtop")
        defer {
            // Whatever happened: the helper's %post may end, and nothing of it is left running.
            _ = FileManager.default.createFile(atPath: root.root + DNFTestLab.slowKnob, contents: Data())
            if Self.isRunning(helper) { kill(helper, SIGKILL) }
        }
        #expect(kill(process.pid, SIGKILL) == 0)
        _ = try? await process.finish(timeout: .seconds(30))

        // rpm still runs in the root: the run is left as it is.
        #expect(try await newestRun()["result"] is NSNull)
        #expect(FileManager.default.createFile(atPath: root.root + DNFTestLab.slowKnob, contents: Data()))
        try await waitUntil("the helper ended") { !Self.isRunning(helper) }
        let settled = try await newestRun()
        // The helper outlived installtop and removed its own folder (installtop could not).
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.file("tmp"))) == [], "nothing left in TMPDIR")
        let rows = try await installtop(["history", "--json", "--history-db", database], in: folder)
        #expect(settled["result"] as? String == "succeeded", "\(settled)\n\(rows.stdout)")
        let packages = (settled["packages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(Set(packages) == ["lab-slow", "lab-print"], "\(settled)")
        #expect(settled["installRoot"] as? String == root.root)
        #expect(root.installedVersions(of: "lab-slow") == ["1.0-1"] && root.installedVersions(of: "lab-print") == ["1.0-1"])
        #expect(rows.stdout.contains("the engine that ran it stopped before the transaction ended; dnf and rpm went on"), "\(rows.stdout)")
    }

    /// Whether `pid` runs (a zombie no longer does).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    /// The first child of `parent` whose command line contains `text`.
    private static func child(of parent: pid_t, running text: String) -> pid_t? {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return pids.first { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == parent,
                  let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: command, as: UTF8.self).contains(text)
        }
    }

    @Test("A manifest's dnf: job: validate counts it, run plans and runs it, an installroot relative to the manifest")
    func manifestJob() async throws {
        let root = try lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let manifest = root.folder + "/patch.yaml"
        try "jobs:\n  - name: Lab tools\n    dnf: {install: [lab-app, lab-print], installroot: root, releasever: \"1\"}\n"
            .write(toFile: manifest, atomically: true, encoding: .utf8)

        let validate = try await installtop(["validate", manifest], in: folder)
        #expect(validate.status == 0 && (validate.stdout + validate.stderr).contains("a dnf transaction (planned when it runs)"),
                "\(validate.stdout) \(validate.stderr)")
        let run = try await installtop(["run", manifest, "--json", "--no-history"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.jsonEvents()
        #expect(events.first { $0.name == "job.queued" }?.string("name")?.hasPrefix("Lab tools · 3 to install") == true)
        #expect(completed(events) == ["lab-lib": "succeeded", "lab-app": "succeeded", "lab-print": "succeeded"])
        #expect(root.installedVersions(of: "lab-print") == ["1.0-1"])
    }

    @Test("Undo after the repository dropped the old versions: the upgrade kept both rpms, its undo downgrades both from them, then the install's undo removes them; one entry each, the history says who undid what")
    func undoFromKeptRPMs() async throws {
        let host = HostRPMFingerprint()
        let root = try lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        func dnf(_ arguments: [String]) async throws -> RunResult {
            try await installtop(["dnf"] + arguments + ["--yes", "--json", "--history-db", database] + rootArguments(root), in: folder)
        }
        func runs() async throws -> [[String: Any]] {
            try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
        }

        let install = try await dnf(["install", "lab-app"])
        #expect(install.status == 0, "\(install.stderr)")
        try root.publish([DNFTestLab.library("2.0"), DNFTestLab.application("2.0")])
        let upgrade = try await dnf(["upgrade"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        // The archive moved on: 1.0 is no longer offered.
        try root.withdraw(DNFTestLab.library("1.0"))
        try root.withdraw(DNFTestLab.application("1.0"))

        var listed = try await runs()
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

        let undo = try await dnf(["undo", String(upgradeID)])
        #expect(undo.status == 0, "\(undo.stderr)")
        let events = try undo.jsonEvents()
        let queued = try #require(events.first { $0.name == "job.queued" })
        #expect(queued.string("name")?.hasPrefix("dnf undo \(upgradeID)") == true)
        let titles = (queued.fields["updates"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(Set(titles) == ["lab-lib 2.0-1 → 1.0-1", "lab-app 2.0-1 → 1.0-1"], "\(titles)")
        #expect(completed(events) == ["lab-lib": "succeeded", "lab-app": "succeeded"])
        #expect(root.installedVersions(of: "lab-app") == ["1.0-1"] && root.installedVersions(of: "lab-lib") == ["1.0-1"])

        listed = try await runs()
        #expect(listed.first { $0["run"] as? Int == upgradeID }?["undoneBy"] as? Int != nil, "\(listed)")
        let again = try await dnf(["undo", String(upgradeID)])
        #expect(again.status == 2 && again.stderr.contains("undone already"), "\(again.stderr)")

        // Now the install can be undone: both packages go, in the root the run recorded.
        let installID = try #require(installRun["run"] as? Int)
        let elsewhere = try await installtop(["dnf", "undo", String(installID), "--yes", "--history-db", database, "--installroot", folder.path],
                                             in: folder)
        #expect(elsewhere.status == 2 && elsewhere.stderr.contains("run \(installID) acted on the root \(root.root), not on \(folder.path)"),
                "\(elsewhere.stderr)")
        let removal = try await installtop(["dnf", "undo", String(installID), "--yes", "--json", "--history-db", database], in: folder)
        #expect(removal.status == 0, "\(removal.stderr)")
        #expect(root.installedVersions(of: "lab-app").isEmpty && root.installedVersions(of: "lab-lib").isEmpty)
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("The repository had dropped 1.0 before the upgrade: the upgrade rebuilt both rpms from the installed files (the edited configuration as edited), and the undo puts them back, rpm -V clean, saying what rpm now takes for the package's own")
    func undoFromRebuiltRPMs() async throws {
        let host = HostRPMFingerprint()
        let root = try lab([DNFTestLab.library("1.0"), DNFTestLab.printingApplication("1.0")])
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        func dnf(_ arguments: [String]) async throws -> RunResult {
            try await installtop(["dnf"] + arguments + ["--yes", "--json", "--history-db", database] + rootArguments(root), in: folder)
        }
        #expect(try await dnf(["install", "lab-app"]).status == 0)
        let configuration = root.root + DNFTestLab.configuration
        try "level = 1.0\nedited = yes\n".write(toFile: configuration, atomically: false, encoding: .utf8)
        try root.withdraw(DNFTestLab.library("1.0"))
        try root.withdraw(DNFTestLab.printingApplication("1.0"))
        try root.publish([DNFTestLab.library("2.0"), DNFTestLab.printingApplication("2.0")])
        let upgrade = try await dnf(["upgrade"])
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        let upgradeRun = try #require(try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects().first)
        #expect(upgradeRun["undoable"] as? Bool == true, "\(upgradeRun)")
        let id = try #require(upgradeRun["run"] as? Int)
        let sources = SystemCommand.run(["/usr/bin/sqlite3", database, "SELECT package || ' ' || source FROM keptVersion ORDER BY package"])
        #expect(sources.stdout == "lab-app rebuilt\nlab-lib rebuilt\n", "\(sources.stdout)\(sources.stderr)")

        let undo = try await dnf(["undo", String(id), "--json-logs"])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(root.installedVersions(of: "lab-app") == ["1.0-1"] && root.installedVersions(of: "lab-lib") == ["1.0-1"])
        // The rebuilt package's %post ran as the original's does.
        #expect(try undo.jsonEvents().contains { $0.string("line") == "lab-app 1.0 set up" }, "\(undo.stdout)")
        #expect(Self.verified(root, "lab-app").isEmpty, "rpm -V after the undo")
        #expect(try String(contentsOfFile: configuration, encoding: .utf8) == "level = 1.0\nedited = yes\n")
        #expect(undo.stderr.contains("lab-app 1.0-1 came back from an rpm rebuilt with /etc/lab-app.conf as edited: rpm now takes the edit for the package's own"),
                "\(undo.stderr)")
        #expect(Self.verified(root, "lab-lib").isEmpty)
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    /// `rpm -V NAME` in `root`: what differs from what rpm installed (empty when nothing does,
    /// or when the package is not installed: then it says so).
    private static func verified(_ root: PrivateDNFRoot, _ name: String) -> String {
        let result = SystemCommand.run(["/usr/bin/rpm", "--root", root.root, "--dbpath", "/var/lib/rpm", "-V", name])
        return result.stdout + result.stderr
    }

    @Test("A package changed outside installtop since the run: its undo is refused with what rpm has now, nothing changed")
    func undoRefusedAfterOutsideChange() async throws {
        let root = try lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        let install = try await installtop(["dnf", "install", "lab-print", "--yes", "--json", "--history-db", database] + rootArguments(root), in: folder)
        #expect(install.status == 0, "\(install.stderr)")
        let removal = try await installtop(["dnf", "remove", "lab-print", "--yes", "--json", "--no-history"] + rootArguments(root), in: folder)
        #expect(removal.status == 0, "\(removal.stderr)")
        let undo = try await installtop(["dnf", "undo", "1", "--yes", "--history-db", database] + rootArguments(root), in: folder)
        #expect(undo.status == 2)
        #expect(undo.stderr.contains("lab-print was changed outside installtop since run 1: the rpm database has none installed now"), "\(undo.stderr)")
    }
}

/// A stop before rpm's transaction, while dnf downloads: the lab repository is served over HTTP
/// inside a network namespace of the test's own (`unshare -n`, only its loopback up), by a
/// server that sends the metadata and then stalls every package's body, so dnf waits in its
/// download. The stop ends the job at once, nothing installed.
@Suite("installtop dnf: a stop before rpm's transaction")
struct DNFStopBeforeRPMTests {
    /// Serves FOLDER on 127.0.0.1:PORT; a `.rpm` gets its headers and 1 kB, then nothing until
    /// the client goes away. It writes `ready` once it listens, and ends with its parent
    /// (installtop), or after 300 s.
    private static let stallingServer = """
        import http.server, os, select, sys, threading
        folder, port, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *a, **k): super().__init__(*a, directory=folder, **k)
            def log_message(self, *a): pass
            def do_GET(self):
                if not self.path.endswith('.rpm'): return super().do_GET()
                size = os.path.getsize(os.path.join(folder, self.path.lstrip('/')))
                self.send_response(200); self.send_header('Content-Length', str(size)); self.end_headers()
                self.wfile.write(b'\\0' * 1024); self.wfile.flush()
                select.select([self.connection], [], [], 300)
        server = http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler)
        server.daemon_threads = True
        parent = os.getppid()
        def watch():
            for _ in range(3000):
                if os.getppid() != parent: break
                threading.Event().wait(0.1)
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
        open(ready, 'w').close()
        server.serve_forever()
        """

    @Test("Before rpm runs, a stop ends the job: its package aborted, rpm never began, nothing in the rpm database")
    func stopWhileDownloading() async throws {
        try PrivateDNFRoot.requireTools()
        let root = try PrivateDNFRoot(temporaryWithPrefix: "itop-dnf-stop")
        defer { root.remove() }
        try root.publish([DNFTestLab.printer])
        let folder = try TestFolder()
        defer { folder.remove() }
        // No low-speed limit (dnf's default gives up after 30 s below 1000 bytes/s, which a
        // loaded machine reached before the stop came): the stall lasts until the stop.
        try Data("[lab]\nname=lab over http\nbaseurl=http://127.0.0.1:8765/\nenabled=1\ngpgcheck=0\nmetadata_expire=0\nminrate=0\ntimeout=600\n".utf8)
            .write(to: URL(fileURLWithPath: root.root + "/etc/yum.repos.d/lab.repo"))
        let script = folder.file("stall.py")
        try Data(Self.stallingServer.utf8).write(to: URL(fileURLWithPath: script))
        let ready = folder.file("ready")
        let installtop = try InstalltopBinary.path()
        // unshare becomes the shell, which starts the server and then becomes installtop (exec):
        // the pid the test signals is installtop's, and the server's parent, whose end ends it.
        let process = try InstalltopProcess(
            ["-n", "--", "/bin/sh", "-c",
             "ip link set lo up && { /usr/bin/python3 \"$1\" \"$2\" 8765 \"$3\" & } && while [ ! -e \"$3\" ]; do sleep 0.05; done && shift 3 && exec \"$@\"",
             "sh", script, root.repository, ready, installtop, "dnf", "install", "lab-print", "--yes", "--json", "--no-history",
             "--installroot", root.root, "--releasever", root.releaseVersion],
            in: folder, executable: "/usr/bin/unshare")
        try await process.waitForOutput(#""jobMessage":"downloading"#)
        process.send(SIGINT)
        let result = try await process.finish(timeout: .seconds(60))
        #expect(result.status == 3, "aborted: \(result.stderr)")
        let events = try result.jsonEvents()
        let completed = try #require(events.first { $0.name == "update.completed" })
        #expect(completed.string("result") == "aborted", "\(completed)")
        #expect(!events.contains { $0.name == "update.started" }, "rpm began on nothing")
        #expect(root.installedVersions(of: "lab-print").isEmpty)
    }
}

/// A package that obsoletes an installed one: the plan says both, the run is the plan, the
/// obsoleted package is gone from the rpm database.
@Suite("installtop dnf: obsoletes")
struct DNFObsoletesTests {
    @Test("Installing lab-new removes lab-old, which it obsoletes: two updates, both succeeded")
    func obsoletes() async throws {
        try PrivateDNFRoot.requireTools()
        let root = try PrivateDNFRoot(temporaryWithPrefix: "itop-dnf-obsoletes")
        defer { root.remove() }
        try root.publish([DNFTestLab.old])
        let folder = try TestFolder()
        defer { folder.remove() }
        let arguments = ["--installroot", root.root, "--releasever", root.releaseVersion, "--no-history"]
        #expect(try await installtop(["dnf", "install", "lab-old", "--yes"] + arguments, in: folder).status == 0)
        try root.publish([DNFTestLab.successor])

        let plan = try await installtop(["dnf", "install", "lab-new"] + arguments, in: folder)
        #expect(plan.stdout.contains("Obsoleting (removed):\n  lab-old 1.0-1 (obsoleted by lab-new) [noarch]"), "\(plan.stdout)")
        let run = try await installtop(["dnf", "install", "lab-new", "--yes", "--json"] + arguments, in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.jsonEvents()
        let results = Dictionary(events.filter { $0.name == "update.completed" }.compactMap { event in event.string("id").map { ($0, event.string("result") ?? "?") } },
                                 uniquingKeysWith: { _, last in last })
        #expect(results == ["lab-new": "succeeded", "lab-old": "succeeded"], "\(results)")
        #expect(root.installedVersions(of: "lab-old").isEmpty && root.installedVersions(of: "lab-new") == ["1.0-1"])
    }
}
