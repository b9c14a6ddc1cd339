import Foundation
import Glibc
import Testing

/// Any program that speaks the driver protocol, through the real binary (Documentation/MANIFESTS-AND-DRIVERS.md "Drivers
/// from manifests"): the shipped example driver (Examples/driver/) from its manifest, from
/// `installtop drive`, stopped, and submitted to `serve`.
@Suite("driver kind: Examples/driver through run, drive and serve")
struct DriverKindTests {
    /// Examples/driver/ of this checkout.
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/driver").path

    /// The example's updates with their results, and the job's result, from `--json` events.
    private func results(_ events: [JSONEvent]) -> (updates: [String], job: String?) {
        let updates = events.filter { $0.name == "update.completed" }.map { "\($0.string("id") ?? "?") \($0.string("result") ?? "?")" }
        return (updates, events.last { $0.name == "job.completed" }?.string("result"))
    }

    @Test("run of the example's manifest: the job it declares, its three updates with bars, all succeeded")
    func runTheExampleManifest() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let result = try await installtop(["run", "--json", "--no-history", Self.examples + "/manifest.yaml"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.jsonEvents()
        let queued = try #require(events.first { $0.name == "job.queued" })
        #expect(queued.string("name") == "Example driver")
        #expect(results(events).updates == ["fetch succeeded", "apply succeeded", "verify succeeded"])
        #expect(results(events).job == "succeeded")
        let percents = events.filter { $0.name == "progress" && $0.string("id") == nil && $0.index == 0 }.compactMap { $0.double("updatePercent") }
        #expect(percents.last == 100, "the first update's bar reached 100 %: \(percents)")
    }

    @Test("validate names the driver and refuses a broken driver section at its positions")
    func validate() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let fine = try await installtop(["validate", Self.examples + "/manifest.yaml"], in: folder)
        #expect(fine.status == 0)
        #expect(fine.stdout.contains("OK — 1 job: a driver (its jobs are the ones it declares)"), "\(fine.stdout)")
        try folder.write("broken.yaml", """
            jobs:
              - name: Broken
                driver: {comand: [./x], workdir: ./nowhere}
            """)
        let broken = try await installtop(["validate", "broken.yaml"], in: folder)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("broken.yaml:3:14: unknown key `comand` in driver; expected one of: command, env, workdir; did you mean `command`?"),
                "\(broken.stderr)")
        #expect(broken.stderr.contains("broken.yaml:3:38: workdir `\(folder.path)/nowhere` does not exist"), "\(broken.stderr)")
        #expect(broken.stderr.contains("broken.yaml:3:13: missing key `command` in driver"), "\(broken.stderr)")
    }

    @Test("drive -- the example: a stop (SIGINT) lets the running step finish and starts no other; exit 3")
    func driveAndStop() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let process = try InstalltopProcess(["drive", "--json", "--no-history", "--", Self.examples + "/example-driver.sh"], in: folder,
                                            environment: ["EXAMPLE_STEP_SECONDS": "0.5"])
        try await process.send(SIGINT, whenOutputContains: #""event":"update.completed","job":1,"index":0"#)
        let result = try await process.finish()
        #expect(result.status == 3, "\(result.stderr)")
        let (updates, job) = results(try result.jsonEvents())
        #expect(updates.first == "fetch succeeded")
        #expect(updates.last == "verify aborted", "the step after the stop never started: \(updates)")
        #expect(job == "aborted")
        #expect(process.leftovers.isEmpty, "the driver is gone")
    }

    @Test("submit of a driver job to serve: the engine runs it, its job succeeds")
    func submitToServe() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let manifest = try daemon.folder.write("driver.yaml", """
            jobs:
              - name: Example through serve
                driver:
                  command: [\(Self.examples)/example-driver.sh]
                  env: {EXAMPLE_STEP_SECONDS: "0.05"}
            """)
        let submitted = try await daemon.run(["submit", manifest])
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(submitted.stdout.contains("driver queued: Example through serve (its jobs appear as it declares them)"), "\(submitted.stdout)")
        try await daemon.waitForJob(1, state: "succeeded")
        let job = try #require(try await daemon.statusJob(1))
        #expect(job["name"] as? String == "Example driver", "the job is the one the driver declared: \(job)")
        let updates = try #require(job["updates"] as? [[String: Any]])
        #expect(updates.map { $0["state"] as? String } == ["succeeded", "succeeded", "succeeded"])
    }

    @Test("a line of a working driver that is not JSON is ignored and counted: job.completed says protocolErrors 1, the job still succeeds")
    func lineThatIsNotJSONIsCounted() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let script = """
            say() { printf '%s\\n' "$1" >&3; }
            say '{"type":"plan","job":"j","name":"Steps","updates":[{"id":"s1","title":"Step one"}]}'
            say '{"type":"started","job":"j","update":"s1"}'
            say 'this is not JSON'
            say '{"type":"finished","job":"j","update":"s1","result":"succeeded"}'
            say '{"type":"jobEnded","job":"j"}'
            """
        let result = try await installtop(["drive", "--json", "--no-history", "--", "/bin/sh", "-c", script], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let completed = try #require(try result.jsonEvents().last { $0.name == "job.completed" })
        #expect(completed.string("result") == "succeeded" && completed.int("protocolErrors") == 1, "\(completed)")
    }

    @Test("a driver that speaks another protocol version, or only lines that are no protocol, fails with a job that says so",
          arguments: [
              (#"echo '{"type":"hello","protocol":2}' >&3"#,
               "1 line was not driver protocol 1; the first: the driver speaks protocol 2; this installtop speaks 1"),
              (#"i=0; while [ $i -lt 50 ]; do echo "not json $i" >&3; i=$((i+1)); done"#, "50 lines were not driver protocol 1; the first: "),
          ])
    func wrongProtocol(script: String, said: String) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let result = try await installtop(["drive", "--json", "--no-history", "--", "/bin/sh", "-c", script], in: folder)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let events = try result.jsonEvents()
        let update = try #require(events.first { $0.name == "update.completed" })
        #expect(update.string("result") == "failed")
        #expect(update.string("reason")?.contains(said) == true, "\(update.string("reason") ?? "no reason")")
        #expect(events.last { $0.name == "job.completed" }?.string("result") == "failed")
    }
}
