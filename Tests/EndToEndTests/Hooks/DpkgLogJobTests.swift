import APTTestSupport
import Foundation
import Glibc
import Testing

/// Without hooks (rule 28, Documentation/OBSERVED-JOBS.md "Without hooks"): `installtop serve --apt-config` follows
/// the private root's dpkg lock and log, and a plain `apt-get install` there becomes an observed
/// job from what dpkg's log says, its results from dpkg's state once apt-get is gone.
@Suite("observed jobs from dpkg's log", .serialized)
struct DpkgLogJobTests {
    @Test("apt-get install held open by a slow postinst, no hooks: one observed job from dpkg's log with both packages and their phases, results after")
    func installWithoutHooks() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-slow", postinst: "while [ ! -e \"$DPKG_ROOT/release\" ]; do sleep 0.05; done"),
            TestPackage(name: "lab-later", version: "2.1", depends: "lab-slow"),
        ])
        let fixture = try DaemonFixture(history: true)
        defer { fixture.folder.remove() }
        try await fixture.start(extraArguments: ["--apt-config", apt.configuration])
        let client = try await RawClient.subscribed(to: fixture.socket)
        defer { client.close() }

        let release = apt.root + "/release"
        let aptGet = try Self.startAptGet(["install", "-y", "lab-later"], in: apt, folder: fixture.folder)
        defer {
            _ = FileManager.default.createFile(atPath: release, contents: nil)
            if aptGet.poll() == nil { kill(aptGet.pid, SIGKILL) }
            _ = aptGet.waitBlocking()
        }
        let running = try await client.read(until: "lab-slow configuring, from dpkg's log", timeout: .seconds(90)) {
            $0.name == "progress" && ($0.string("message") ?? "").lowercased().contains("configuring")
        }
        let queued = try #require(running.first { $0.name == "job.queued" })
        #expect(queued.bool("observed") == true)
        let name = queued.string("name") ?? ""
        #expect(name.hasPrefix("apt-get install -y lab-later — root") && name.contains("installtop hooks install"), "\(name)")
        // apt unpacks both before lab-slow's postinst runs: the job has both by then, in its
        // plan when the watcher first read the log after dpkg named lab-later (or found it in
        // dpkg's arguments), else added as the log names it (a loaded CI run was between the two).
        let planned = queued.fields["updates"] as? [[String: Any]] ?? []
        let added = running.filter { $0.name == "update.started" }.compactMap { $0.fields["added"] as? [String: Any] }
        let updates = planned + added
        #expect(Set(updates.compactMap { $0["id"] as? String }) == ["lab-slow", "lab-later"], "\(updates)")
        #expect(updates.contains { $0["title"] as? String == "lab-later 2.1" }, "versions from the log or dpkg's arguments: \(updates)")
        #expect(!running.contains { $0.name == "job.completed" }, "the job runs while the postinst does")

        _ = FileManager.default.createFile(atPath: release, contents: nil)
        #expect(aptGet.waitBlocking() == 0)
        let rest = try await client.read(until: "the observed job's job.completed", timeout: .seconds(90)) { $0.name == "job.completed" }
        let results = Self.results(running + rest)
        #expect(results == ["lab-slow": "succeeded", "lab-later": "succeeded"], "\(results)")
        #expect((running + rest).filter { $0.name == "job.queued" }.count == 1, "one job for the transaction")
        #expect(try apt.states().filter { $0.value.status == "ii" }.keys.sorted() == ["lab-later", "lab-slow"])
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("With hooks installed too, the hooks' job is the only one for the transaction")
    func hooksWin() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-a"), TestPackage(name: "lab-b", depends: "lab-a", postinst: "sleep 0.5")])
        let fixture = try DaemonFixture(history: true)
        defer { fixture.folder.remove() }
        try await fixture.start(extraArguments: ["--apt-config", apt.configuration])
        let hooks = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket], in: fixture.folder)
        try #require(hooks.status == 0, "\(hooks.stdout)\(hooks.stderr)")
        let client = try await RawClient.subscribed(to: fixture.socket)
        defer { client.close() }

        let run = try apt.aptGet(["install", "-y", "lab-b"])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try await client.read(until: "the observed job's job.completed", timeout: .seconds(90)) { $0.name == "job.completed" }
        // A second job would be queued before the first completes: both are seen by then.
        let queued = events.filter { $0.name == "job.queued" }
        #expect(queued.count == 1, "\(queued.map { $0.string("name") ?? "" })")
        let name = queued.first?.string("name") ?? ""
        #expect(name.hasPrefix("apt-get install -y lab-b") && !name.contains("dpkg's log"), "the hooks' job, with apt's plan: \(name)")
        let status = try await fixture.statusJobs()
        #expect(status.count == 1, "\(status)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("serve started while apt-get is already held in a postinst: the log is read back to the holder's start, the job has both packages and its phase")
    func engineStartedMidTransaction() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-slow", postinst: "while [ ! -e \"$DPKG_ROOT/release\" ]; do sleep 0.05; done"),
            TestPackage(name: "lab-later", depends: "lab-slow"),
        ])
        let fixture = try DaemonFixture(history: true)
        defer { fixture.folder.remove() }
        let release = apt.root + "/release"
        let aptGet = try Self.startAptGet(["install", "-y", "lab-later"], in: apt, folder: fixture.folder)
        defer {
            _ = FileManager.default.createFile(atPath: release, contents: nil)
            if aptGet.poll() == nil { kill(aptGet.pid, SIGKILL) }
            _ = aptGet.waitBlocking()
        }
        try await waitUntil("lab-slow's postinst to run") {
            ((try? String(contentsOfFile: apt.root + "/var/log/dpkg.log", encoding: .utf8)) ?? "").contains("status half-configured lab-slow")
        }
        try await fixture.start(extraArguments: ["--apt-config", apt.configuration])
        let client = try RawClient(socket: fixture.socket)
        defer { client.close() }
        try client.send(#"{"command":"subscribe","id":1}"#)
        let running = try await client.read(until: "the job, lab-slow configuring", timeout: .seconds(90)) {
            $0.name == "progress" && ($0.string("message") ?? "").lowercased().contains("configuring")
        }
        let queued = try #require(running.first { $0.name == "job.queued" })
        let updates = queued.fields["updates"] as? [[String: Any]] ?? []
        #expect(Set(updates.compactMap { $0["id"] as? String }) == ["lab-slow", "lab-later"], "from the log before serve started: \(updates)")
        _ = FileManager.default.createFile(atPath: release, contents: nil)
        #expect(aptGet.waitBlocking() == 0)
        let rest = try await client.read(until: "job.completed", timeout: .seconds(90)) { $0.name == "job.completed" }
        let results = Self.results(running + rest)
        #expect(results == ["lab-slow": "succeeded", "lab-later": "succeeded"], "\(results)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("dpkg -i of two local archives, no hooks: the job from dpkg's log starts with the first package, the second is added with its version when the log names it, both succeed")
    func handDpkgOfTwoArchives() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let first = TestPackage(name: "lab-first", preinst: "while [ ! -e \"$DPKG_ROOT/go\" ]; do sleep 0.05; done")
        let second = TestPackage(name: "lab-second", version: "2.0")
        try apt.publish([first, second])
        let fixture = try DaemonFixture(history: true)
        defer { fixture.folder.remove() }
        try await fixture.start(extraArguments: ["--apt-config", apt.configuration])
        let client = try await RawClient.subscribed(to: fixture.socket)
        defer { client.close() }

        let go = apt.root + "/go"
        let dpkg = try HandDpkgInstall.start([(first, "one"), (second, "two")], in: apt, folder: fixture.folder, statusLogger: nil)
        defer {
            _ = FileManager.default.createFile(atPath: go, contents: nil)
            if dpkg.poll() == nil { kill(dpkg.pid, SIGKILL) }
            _ = dpkg.waitBlocking()
        }
        // lab-first's preinst holds dpkg until `go`: the log has not named lab-second yet.
        let before = try await client.read(until: "the observed job from dpkg's log", timeout: .seconds(90)) {
            $0.name == "job.queued" && $0.bool("observed") == true
        }
        let queued = try #require(before.last)
        let updates = queued.fields["updates"] as? [[String: Any]] ?? []
        #expect(updates.compactMap { $0["id"] as? String } == ["lab-first"], "\(updates)")
        #expect((queued.string("name") ?? "").contains("plan partial"), "\(queued)")

        _ = FileManager.default.createFile(atPath: go, contents: nil)
        #expect(dpkg.waitBlocking() == 0)
        let rest = try await client.read(until: "the observed job's job.completed", timeout: .seconds(90)) { $0.name == "job.completed" }
        let added = try #require(rest.first { $0.name == "update.started" && $0.string("id") == "lab-second" })
        let item = try #require(added.fields["added"] as? [String: Any], "update.started says the update is added: \(added)")
        #expect(item["title"] as? String == "lab-second 2.0", "the version from dpkg's log: \(item)")
        #expect(Self.results(before + rest) == ["lab-first": "succeeded", "lab-second": "succeeded"], "\(Self.results(before + rest))")
        #expect(try apt.states().filter { $0.value.status == "ii" }.keys.sorted() == ["lab-first", "lab-second"])
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    /// `apt-get ARGUMENTS` in `apt`'s root, started and left running (the caller reaps it).
    private static func startAptGet(_ arguments: [String], in apt: APTTestRoot, folder: TestFolder) throws -> SpawnedProcess {
        try SpawnedProcess(
            executable: "/usr/bin/apt-get", arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(apt.environment) { _, new in new },
            workingDirectory: folder.path, stdoutPath: try folder.write("apt.out", ""), stderrPath: try folder.write("apt.err", ""))
    }

    /// Each package's result in `events`' `update.completed`.
    private static func results(_ events: [JSONEvent]) -> [String: String] {
        Dictionary(events.filter { $0.name == "update.completed" }.map { ($0.string("id") ?? "", $0.string("result") ?? "") }) { first, _ in first }
    }
}
