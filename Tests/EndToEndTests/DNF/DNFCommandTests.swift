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
    @Test("--json: one update per package in dnf's order, versions in the titles, every result as the rpm database says")
    func installAndUpgrade() async throws {
        let host = HostRPMFingerprint()
        let root = try DNFEndToEnd.lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let install = try await installtop(["dnf", "install", "lab-app", "--yes", "--json", "--no-history"] + DNFEndToEnd.rootArguments(root), in: folder)
        #expect(install.status == 0, "\(install.stderr)")
        var events = try install.jsonEvents()
        let queued = try #require(events.first { $0.name == "job.queued" })
        let updates = queued.fields["updates"] as? [[String: Any]] ?? []
        // dnf's order: rpm orders a transaction only once its packages are downloaded.
        #expect(Set(updates.compactMap { $0["id"] as? String }) == ["lab-lib", "lab-app"])
        #expect(Set(updates.compactMap { $0["title"] as? String }) == ["lab-lib 1.0-1", "lab-app 1.0-1"])
        #expect(queued.string("packageTool") == "dnf")
        #expect(DNFEndToEnd.completed(events) == ["lab-lib": "succeeded", "lab-app": "succeeded"])
        #expect(root.installedVersions(of: "lab-app") == ["1.0-1"] && root.installedVersions(of: "lab-lib") == ["1.0-1"])

        try root.publish([DNFTestLab.library("2.0"), DNFTestLab.application("2.0")])
        let upgrade = try await installtop(["dnf", "upgrade", "--yes", "--json", "--no-history"] + DNFEndToEnd.rootArguments(root), in: folder)
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        events = try upgrade.jsonEvents()
        let titles = (events.first { $0.name == "job.queued" }?.fields["updates"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(Set(titles) == ["lab-lib 1.0-1 → 2.0-1", "lab-app 1.0-1 → 2.0-1"])
        #expect(DNFEndToEnd.completed(events) == ["lab-lib": "succeeded", "lab-app": "succeeded"])
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
        let root = try DNFEndToEnd.lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let plan = try await installtop(["dnf", "install", "lab-app"] + DNFEndToEnd.rootArguments(root), in: folder)
        #expect(plan.status == 1)
        #expect(plan.stdout.contains("Installing:\n  lab-app 1.0-1 [noarch, lab]\n  lab-lib 1.0-1 [noarch, lab]\n"), "\(plan.stdout)")
        #expect(plan.stdout.contains("2 to install"), "\(plan.stdout)")
        #expect(plan.stderr.contains("--yes"))
        #expect(root.installedVersions(of: "lab-lib").isEmpty, "nothing was installed")

        let unknown = try await installtop(["dnf", "install", "lab-nosuch", "--yes"] + DNFEndToEnd.rootArguments(root), in: folder)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("nothing was run") && unknown.stderr.contains("lab-nosuch"), "\(unknown.stderr)")

        let here = try await installtop(["dnf", "install", "lab-app", "--yes"], in: folder)
        #expect(here.status == 2)
        #expect(here.stderr.contains("this system's packages are dpkg's"), "\(here.stderr)")

        let nobody = try NobodyInstalltop()
        defer { nobody.remove() }
        let notRoot = try await nobody.run(["dnf", "install", "lab-app", "--yes"] + DNFEndToEnd.rootArguments(root), in: folder, runtimeDirectory: nil,
                                           machineSocket: nil)
        #expect(notRoot.status == 2 && notRoot.stderr.contains("changing packages needs root"), "\(notRoot.stderr) \(notRoot.stdout)")

        let nothing = try await installtop(["dnf", "remove", "lab-app", "--yes"] + DNFEndToEnd.rootArguments(root), in: folder)
        #expect(nothing.status == 0 && nothing.stdout.contains("Nothing to remove"), "\(nothing.stdout) \(nothing.stderr)")
        #expect(HostRPMFingerprint().changes(since: host).isEmpty, "\(HostRPMFingerprint().changes(since: host))")
    }

    @Test("Scriptlets: output under its package, a failing %post is the package's error, dnf's reboot rule, removal with what it needed")
    func scriptletsRebootAndRemoval() async throws {
        let root = try DNFEndToEnd.lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let run = try await installtop(["dnf", "install", "lab-print", "lab-fail", "linux-firmware", "--yes", "--json", "--json-logs", "--no-history"]
                                       + DNFEndToEnd.rootArguments(root), in: folder)
        let events = try run.jsonEvents()
        let printer = try #require((events.first { $0.name == "job.queued" }?.fields["updates"] as? [[String: Any]])?
            .firstIndex { $0["id"] as? String == "lab-print" })
        let output = events.filter { $0.name == "log" }
        #expect(output.contains { $0.index == printer && $0.string("line") == "lab-print: ready" }, "\(output)")
        let results = DNFEndToEnd.completed(events)
        #expect(results["lab-print"] == "succeeded")
        #expect(results["lab-fail"] == "succeededWithErrors", "rpm keeps a package whose %post failed: \(results)")
        let firmware = try #require(events.first { $0.name == "update.completed" && $0.string("id") == "linux-firmware" })
        #expect(firmware.bool("rebootRequired") == true)
        #expect(run.status == 1, "a package succeeded with errors: \(run.stderr)")
        #expect(root.installedVersions(of: "lab-fail") == ["1.0-1"])

        _ = try await installtop(["dnf", "install", "lab-app", "--yes", "--no-history"] + DNFEndToEnd.rootArguments(root), in: folder)
        let removal = try await installtop(["dnf", "remove", "lab-app", "--yes", "--json", "--no-history"] + DNFEndToEnd.rootArguments(root), in: folder)
        #expect(removal.status == 0, "\(removal.stderr)")
        let removed = try removal.jsonEvents()
        #expect(removed.first { $0.name == "job.queued" }?.string("operation") == "uninstall")
        #expect(DNFEndToEnd.completed(removed) == ["lab-app": "succeeded", "lab-lib": "succeeded"], "the library it needed goes too")
        #expect(root.installedVersions(of: "lab-lib").isEmpty && root.installedVersions(of: "lab-app").isEmpty)
    }

    @Test("A stop while rpm runs waits for the transaction's end, a forced one is refused; the rpm database has one entry")
    func stopDuringRPM() async throws {
        let root = try DNFEndToEnd.lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let process = try InstalltopProcess(["dnf", "install", "lab-slow", "lab-print", "--yes", "--json", "--no-history"] + DNFEndToEnd.rootArguments(root),
                                            in: folder)
        // Whatever happens, lab-slow's %post ends.
        defer { _ = FileManager.default.createFile(atPath: root.root + DNFTestLab.slowKnob, contents: Data()) }
        // lab-slow's %post waits for the knob: rpm's transaction runs until the test says.
        try await waitUntil("rpm runs lab-slow's %post") { process.stdout.contains(#""message":"running %post""#) }
        process.send(SIGINT)
        // The job's words, not the stop note job.queued carries ("rpm cannot be cut safely").
        try await process.waitForOutput("stop requested: rpm's transaction is running")
        process.send(SIGINT)
        try await process.waitForOutput("forced stop refused")
        #expect(FileManager.default.createFile(atPath: root.root + DNFTestLab.slowKnob, contents: Data()))
        let result = try await process.finish()
        let events = try result.jsonEvents()
        #expect(DNFEndToEnd.completed(events)["lab-slow"] == "succeeded", "\(DNFEndToEnd.completed(events))")
        #expect(root.installedVersions(of: "lab-slow") == ["1.0-1"], "one entry: rpm was not cut")
        #expect(result.status == 3, "aborted: \(result.stderr)")
    }

    @Test("The helper killed from outside in a %post: a forced stop, the package rpm had recorded kept with that word, the rest not started")
    func helperKilledFromOutside() async throws {
        let root = try DNFEndToEnd.lab()
        defer { root.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }

        let process = try InstalltopProcess(["dnf", "install", "lab-slow", "lab-print", "--yes", "--json", "--no-history"] + DNFEndToEnd.rootArguments(root),
                                            in: folder)
        try await waitUntil("rpm runs lab-slow's %post") { process.stdout.contains(#""message":"running %post""#) }
        let helper = try #require(DNFEndToEnd.child(of: process.pid, running: "installtop-dnf.py"), "the helper runs under installtop")
        #expect(kill(helper, SIGKILL) == 0)
        let result = try await process.finish(timeout: .seconds(60))
        #expect(result.status == 3, "stopped by force: \(result.stderr)")
        let events = try result.jsonEvents()
        let results = DNFEndToEnd.completed(events)
        #expect(results["lab-slow"] == "succeededWithErrors", "\(results)")
        // rpm orders lab-print after lab-slow or before it; either way it is settled from the database.
        #expect(results["lab-print"] == (root.installedVersions(of: "lab-print").isEmpty ? "aborted" : "succeeded"), "\(results)")
        #expect(root.installedVersions(of: "lab-slow") == ["1.0-1"], "one entry")
        #expect(events.contains { ($0.string("jobMessage") ?? "").contains("killed by signal 9 during rpm's transaction") })
        // The helper's private home and files were in installtop's folder for it, removed at the end.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.file("tmp"))) == [], "nothing left in TMPDIR")
    }

    @Test("A manifest's dnf: job: validate counts it, run plans and runs it, an installroot relative to the manifest")
    func manifestJob() async throws {
        let root = try DNFEndToEnd.lab()
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
        #expect(DNFEndToEnd.completed(events) == ["lab-lib": "succeeded", "lab-app": "succeeded", "lab-print": "succeeded"])
        #expect(root.installedVersions(of: "lab-print") == ["1.0-1"])
    }

}
