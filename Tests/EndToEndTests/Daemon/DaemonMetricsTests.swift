import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// `serve --metrics-textfile-directory DIR`: the engine's node_exporter textfile, read by
/// Prometheus' own parser (prometheus_client) after jobs ran and the pending snapshot of a
/// private root was read.
@Suite("daemon: the metrics textfile", .serialized)
struct DaemonMetricsTests {
    @Test("after a job that succeeds and one that fails, prometheus_client reads the results, durations, the queue and the root's pending and security counts",
          .enabled(if: PrometheusTextParser.runsHere, Comment(rawValue: PrometheusTextParser.missingReason)))
    func textfileAfterJobs() async throws {
        let parser = try PrometheusTextParser.locate()
        let host = HostPackageFingerprint()
        let daemon = try DaemonFixture(history: true)
        defer { daemon.remove() }
        let apt = try APTTestRoot(folder: daemon.folder.file("apt"))
        try apt.publish([TestPackage(name: "lab-app"), TestPackage(name: "lab-sec")])
        try apt.aptGet(["-y", "install", "lab-app", "lab-sec"], check: true)
        try apt.publish([TestPackage(name: "lab-app", version: "2.0")])
        try apt.publishSecurity([TestPackage(name: "lab-sec", version: "2.0")])
        let metrics = daemon.folder.file("node-exporter")
        try FileManager.default.createDirectory(atPath: metrics, withIntermediateDirectories: false)
        let serve = try await daemon.start(extraArguments: ["--apt-config", apt.configuration, "--metrics-textfile-directory", metrics])
        let file = metrics + "/installtop.prom"
        #expect(serve.stderr.contains("metrics textfile: \(file)"), "\(serve.stderr)")

        let good = try daemon.folder.script("good.sh", "echo fine")
        let bad = try daemon.folder.script("bad.sh", "echo broken; exit 3")
        try daemon.folder.write("jobs.yaml", """
            jobs:
              - name: Good job
                updates:
                  - {id: good, title: good update, install: [\(good)]}
              - name: Bad job
                updates:
                  - {id: bad, title: bad update, install: [\(bad)]}
            """)
        let submitted = try await daemon.run(["submit", daemon.folder.file("jobs.yaml")])
        #expect(submitted.status == 0, "\(submitted.stderr)")

        // Written at most once a second, the last state always: both results and the root's
        // counts arrive without anything else happening.
        var text = ""
        let written = await eventually {
            text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            return text.contains("installtop_jobs_completed_total{kind=\"commands\",result=\"failed\"} 1")
                && text.contains("installtop_jobs_completed_total{kind=\"commands\",result=\"succeeded\"} 1")
                && text.contains("installtop_pending_packages 2")
        }
        try #require(written, "the textfile never showed both jobs and the pending counts; it says:\n\(text)\nserve:\n\(serve.stderr)")
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_mode & 0o7777 == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: metrics) == ["installtop.prom"], "no temporary file left")

        let families = try await parser.parse(text)
        func family(_ name: String) -> PrometheusTextParser.Family? { families.first { $0.name == name } }
        func values(_ name: String) -> [String: Double] {
            Dictionary(uniqueKeysWithValues: (family(name)?.samples ?? []).map { sample in
                (sample.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "|" + sample.name, sample.value)
            })
        }
        // Only installtop's own names: none of node_exporter's nor apt_info.py's.
        #expect(families.allSatisfy { $0.name.hasPrefix("installtop_") }, "\(families.map(\.name))")
        for theirs in ["apt_upgrades_pending", "apt_upgrades_held", "apt_autoremove_pending", "apt_packages_obsolete",
                       "apt_package_cache_timestamp_seconds", "node_reboot_required"] {
            #expect(family(theirs) == nil)
        }
        #expect(family("installtop_jobs_completed")?.type == "counter")
        #expect(values("installtop_jobs_completed") == [
            "kind=commands,result=failed|installtop_jobs_completed_total": 1,
            "kind=commands,result=succeeded|installtop_jobs_completed_total": 1,
        ])
        #expect(values("installtop_updates_completed") == [
            "kind=commands,result=failed|installtop_updates_completed_total": 1,
            "kind=commands,result=succeeded|installtop_updates_completed_total": 1,
        ])
        let phases = values("installtop_job_phase_duration_seconds")
        #expect(family("installtop_job_phase_duration_seconds")?.type == "summary")
        #expect(phases["kind=commands,phase=running|installtop_job_phase_duration_seconds_count"] == 2, "\(phases)")
        #expect(phases["kind=commands,phase=waiting|installtop_job_phase_duration_seconds_count"] == 2, "\(phases)")
        #expect((phases["kind=commands,phase=running|installtop_job_phase_duration_seconds_sum"] ?? -1) >= 0, "\(phases)")
        #expect(values("installtop_update_duration_seconds")["kind=commands|installtop_update_duration_seconds_count"] == 2)
        #expect(values("installtop_jobs") == ["state=queued|installtop_jobs": 0, "state=running|installtop_jobs": 0])

        // The root as apt-get -s upgrade says it: lab-app from the lab archive, lab-sec from
        // the security one; lists written just now.
        #expect(values("installtop_pending_packages") == ["|installtop_pending_packages": 2])
        #expect(values("installtop_pending_security_packages") == ["|installtop_pending_security_packages": 1])
        #expect(values("installtop_held_back_packages") == ["|installtop_held_back_packages": 0])
        #expect(values("installtop_pending_snapshot_failed") == ["|installtop_pending_snapshot_failed": 0])
        let now = Date().timeIntervalSince1970
        let lists = try #require(family("installtop_apt_lists_updated_timestamp_seconds")?.samples.first?.value)
        #expect(lists <= now && lists > now - 3_600, "lists written \(now - lists) s ago")
        let oldest = try #require(family("installtop_pending_security_oldest_seen_timestamp_seconds")?.samples.first?.value)
        #expect(oldest <= now && oldest > now - 3_600)
        // What this machine's processes need is not the test's: a 0 or a 1.
        #expect([0, 1].contains(family("installtop_reboot_required")?.samples.first?.value ?? -1))
        #expect(values("installtop_armed_confirmations") == ["state=armed|installtop_armed_confirmations": 0,
                                                             "state=reverting|installtop_armed_confirmations": 0])
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("a directory that does not exist is said in the log; the engine serves all the same")
    func missingDirectory() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let missing = daemon.folder.file("no-such-directory")
        let serve = try await daemon.start(extraArguments: ["--metrics-textfile-directory", missing])
        try await waitUntil("serve to say the textfile cannot be written; stderr:\n\(serve.stderr)") {
            serve.stderr.contains("warning: metrics not written: cannot write a file in \(missing): No such file or directory")
        }
        #expect(try await daemon.run(["status"]).status == 0)
    }

    @Test("--no-metrics-textfile with --metrics-textfile-directory is a usage error, exit 2, and nothing is served")
    func contradictoryOptions() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let socket = folder.file("engine.sock")
        let result = try await installtop(["serve", "--socket", socket, "--no-history", "--no-metrics-textfile",
                                           "--metrics-textfile-directory", folder.path], in: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--no-metrics-textfile and --metrics-textfile-directory say opposite things"), "\(result.stderr)")
        #expect(access(socket, F_OK) != 0)
    }
}
