import Foundation
import Glibc
import Testing

/// `installtop demo`, the first thing a new user runs: from any directory, abortable.
@Suite("demo")
struct DemoTests {
    @Test("demo --plain from / aborted during the migration: exit 3, earlier results kept, no process left")
    func abortDuringMigration() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }

        let run = try InstalltopProcess(["demo", "--plain", "--no-history"], in: folder, workingDirectory: "/",
                                        environment: ["INSTALLTOP_DEMO_SPEED": "8", "COLUMNS": "200"])
        // 200 columns: at 80 the summary cuts the two kernels' ids alike. Wait for its first
        // progress line: by then migrate.sh has set its TERM trap (a SIGINT right at the start
        // would end it by the signal, not by its rollback).
        try await run.send(SIGINT, whenOutputContains: "db-migrate 10%")
        let result = try await run.finish()

        #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        for id in ["openssl", "libc6", "curl"] {
            let row = result.summaryRow(of: id)
            #expect(row?.job == "Security updates" && row?.result == "succeeded", "\(id): \(String(describing: row))")
        }
        #expect(result.summaryRow(of: "linux-image-6.1.0-27")?.result == "succeeded")
        #expect(result.stdout.contains("[2 1/1] linux-image-6.1.0-27 succeeded") && result.stdout.contains("(reboot required)"))
        #expect(result.summaryRow(of: "wifi-firmware")?.result == "with errors")
        let nvidia = try #require(result.summaryRow(of: "nvidia-driver"), "stdout: \(result.stdout)")
        #expect(nvidia.result == "failed" && nvidia.exit == "3" && nvidia.reason == "exited with status 3", "\(nvidia)")
        let migrate = try #require(result.summaryRow(of: "db-migrate"))
        #expect(migrate.result == "aborted", "\(migrate)")
        // migrate.sh traps SIGTERM, rolls back, then exits 130 on its own.
        #expect(migrate.exit == "130", "\(migrate)")
        let remove = try #require(result.summaryRow(of: "linux-image-6.1.0-25"))
        #expect(remove.result == "aborted" && remove.exit == "-" && remove.reason.hasPrefix("not started: the job was aborted"), "\(remove)")
        #expect(result.summaryExplanation?.hasPrefix("exit 3: aborted") == true, "\(result.stdout)")

        #expect(run.leftovers.isEmpty, "demo processes left behind: \(run.leftovers)")
        let demoFolders = try FileManager.default.contentsOfDirectory(atPath: folder.file("tmp"))
            .filter { $0.hasPrefix("installtop-demo-") }
        #expect(demoFolders.isEmpty, "the demo's folder was not removed: \(demoFolders)")
    }

    @Test("the demo records into a history of its own, never the real one")
    func demoKeepsItsOwnHistory() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }

        let result = try await installtop(["demo", "--plain", "--exit-when-done"], in: folder,
                                          environment: ["INSTALLTOP_DEMO_SPEED": "40"], timeout: .seconds(300))
        #expect(result.status == 1, "the demo has a failure; stderr: \(result.stderr)")
        let state = folder.file("state/installtop")
        #expect(FileManager.default.fileExists(atPath: state + "/demo-history.sqlite3"))
        #expect(!FileManager.default.fileExists(atPath: state + "/history.sqlite3"), "the real history was created")
        let demoHistory = try await installtop(["history", "--json", "--history-db", state + "/demo-history.sqlite3"], in: folder)
        #expect(demoHistory.stdout.contains("\"nvidia-driver\""), "\(demoHistory.stdout)")
    }

    @Test("the demo's apt job: real packages in a private root, one update each, a failure, a reboot, the host untouched")
    func demoInstallsRealPackages() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get"), "the demo's apt job needs dpkg-deb and apt-get")
        // The host's package state, compared byte for byte afterwards (this target does not
        // use APTTestSupport's fingerprint).
        let hostFiles = ["/var/lib/dpkg/status", "/var/log/dpkg.log", "/run/reboot-required", "/run/reboot-required.pkgs"]
        let before = hostFiles.map { FileManager.default.contents(atPath: $0) }
        let folder = try TestFolder()
        defer { folder.remove() }

        let result = try await installtop(["demo", "--json", "--json-logs", "--no-history", "--exit-when-done"], in: folder,
                                          environment: ["INSTALLTOP_DEMO_SPEED": "40"], timeout: .seconds(300))

        #expect(result.status == 1, "the demo has failures; stderr: \(result.stderr)")
        #expect(!result.stderr.contains("skipping the apt job"), "\(result.stderr)")
        let events = try result.jsonEvents()
        let queued = try #require(events.first { event in
            event.name == "job.queued" && (event.fields["updates"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == "demo-foo" }
        }, "no apt job among the demo's jobs: \(result.stdout)")
        let job = try #require(queued.job)
        #expect(queued.string("name")?.hasPrefix("Demo packages (apt") == true, "\(queued)")
        let jobs = events.filter { $0.name == "job.queued" }.compactMap(\.job)
        #expect(jobs.last == job, "the apt job comes after the manifest's jobs: \(jobs)")

        let ids = (queued.fields["updates"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        let packages = ["demo-libfoo", "demo-foo", "demo-indexer", "demo-broken", "demo-kernel"]
        #expect(ids.sorted() == packages.sorted(), "one update per package: \(ids)")
        let libfoo = try #require(ids.firstIndex(of: "demo-libfoo"))
        let foo = try #require(ids.firstIndex(of: "demo-foo"))
        #expect(libfoo < foo, "the dependency first: \(ids)")

        let completed = Dictionary(events.filter { $0.name == "update.completed" && $0.job == job }.map { ($0.string("id") ?? "", $0) },
                                   uniquingKeysWith: { first, _ in first })
        #expect(completed.keys.sorted() == packages.sorted(), "\(completed.keys.sorted())")
        let broken = try #require(completed["demo-broken"])
        #expect(broken.string("result") == "failed" && broken.string("reason")?.contains("post-installation script") == true, "\(broken)")
        #expect(completed["demo-kernel"]?.string("result") == "succeeded" && completed["demo-kernel"]?.bool("rebootRequired") == true,
                "\(String(describing: completed["demo-kernel"]))")
        for id in ["demo-libfoo", "demo-foo", "demo-indexer"] {
            #expect(completed[id]?.string("result") == "succeeded" && completed[id]?.bool("rebootRequired") == false,
                    "\(id): \(String(describing: completed[id]))")
        }
        // The slow postinst's lines and the failing one's stderr reach their own updates.
        let indexer = ids.firstIndex(of: "demo-indexer")
        let brokenIndex = ids.firstIndex(of: "demo-broken")
        let lines = events.filter { $0.name == "log" && $0.job == job }
        #expect(lines.contains { $0.index == indexer && $0.string("line")?.contains("building the search index") == true },
                "\(lines.map(\.description).joined(separator: "\n"))")
        #expect(lines.contains { $0.index == brokenIndex && $0.string("line")?.contains("made this postinst fail on purpose") == true },
                "\(lines.map(\.description).joined(separator: "\n"))")
        // Every line dpkg's output ties to a package (its own markers, its scripts' `P:` lines)
        // is on that package, whichever of apt's two pipes ran ahead.
        for line in lines {
            guard let text = line.string("line"), let named = packages.first(where: { package in
                text.hasPrefix(package + ":") || text.hasPrefix("Setting up \(package) ") || text.hasPrefix("Unpacking \(package) ")
                    || text.hasPrefix("dpkg: error processing package \(package) ")
            }) else { continue }
            #expect(line.index == ids.firstIndex(of: named), "\(line)")
        }
        let jobCompleted = try #require(events.last { $0.name == "job.completed" && $0.job == job })
        #expect(jobCompleted.bool("rebootRequired") == true, "\(jobCompleted)")

        #expect(hostFiles.map { FileManager.default.contents(atPath: $0) } == before, "the host's dpkg status, log or reboot markers changed")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.file("tmp")).filter { $0.hasPrefix("installtop-demo-") }
        #expect(leftovers.isEmpty, "the demo's folders were not removed: \(leftovers)")
    }

    @Test("--print-manifest prints the shipped manifest; --export writes a copy that runs and refuses to overwrite it")
    func exportTheDemo() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }

        let printed = try await installtop(["demo", "--print-manifest"], in: folder)
        #expect(printed.status == 0)
        #expect(printed.stdout.hasPrefix("# The installtop demo") && printed.stdout.contains("id: db-migrate"), "\(printed.stdout)")

        let copy = folder.file("my-demo")
        let exported = try await installtop(["demo", "--export", copy], in: folder)
        #expect(exported.status == 0 && exported.stdout.contains("installtop run \(copy)/demo.yaml"), "\(exported.stderr)")
        #expect(try String(contentsOfFile: copy + "/demo.yaml", encoding: .utf8) == printed.stdout)
        #expect(FileManager.default.isExecutableFile(atPath: copy + "/apply.sh"))
        #expect(!FileManager.default.isExecutableFile(atPath: copy + "/lib.sh"))

        let again = try await installtop(["demo", "--export", copy], in: folder)
        #expect(again.status == 1 && again.stderr.contains("already has apply.sh"), "\(again.stderr)")

        let validated = try await installtop(["validate", copy + "/demo.yaml"], in: folder)
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
        let ran = try await installtop(["run", copy + "/demo.yaml", "--plain", "--no-history"], in: folder,
                                       environment: ["INSTALLTOP_DEMO_SPEED": "40"], timeout: .seconds(300))
        #expect(ran.status == 1 && ran.summaryRow(of: "db-migrate")?.result == "succeeded", "\(ran.stdout)\(ran.stderr)")
    }
}
