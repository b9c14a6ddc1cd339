import APTTestSupport
import Foundation
import Glibc
import Testing

/// Plain `apt-get` (not installtop) in a private root whose hooks `installtop hooks install
/// --apt-config` wrote, watched by `installtop serve` (rules 28–30): one observed job per
/// transaction, one update per package, results as dpkg's final state says.
@Suite("observed jobs", .serialized)
struct ObservedJobTests {
    /// A root with the hooks, a serve on a private socket and a subscriber past its snapshot.
    private struct Setup {
        let apt: APTTestRoot
        let fixture: DaemonFixture
        let client: RawClient

        init(_ packages: [TestPackage]) async throws {
            apt = try APTTestRoot()
            try apt.publish(packages)
            fixture = try DaemonFixture(history: true)
            try await fixture.start()
            let hooks = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket], in: fixture.folder)
            guard hooks.status == 0 else { throw EndToEndError.conditionNotMet("hooks install: \(hooks.stdout)\(hooks.stderr)") }
            client = try await RawClient.subscribed(to: fixture.socket)
        }

        func remove() {
            client.close()
            apt.remove()
            fixture.folder.remove()
        }

        /// Every event up to the observed job's `job.completed`.
        func observedJob() async throws -> [JSONEvent] {
            try await client.read(until: "the observed job's job.completed", timeout: .seconds(90)) { $0.name == "job.completed" }
        }
    }

    @Test("apt-get install: one observed job named after apt-get, one update per package with versions, each succeeded as dpkg says")
    func install() async throws {
        let host = HostPackageFingerprint()
        let setup = try await Setup([
            TestPackage(name: "lab-base"),
            TestPackage(name: "lab-app", depends: "lab-base", postinst: "echo configuring lab-app"),
        ])
        defer { setup.remove() }

        let run = try setup.apt.aptGet(["install", "-y", "lab-app"])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try await setup.observedJob()

        let queued = try #require(events.first { $0.name == "job.queued" })
        #expect(queued.bool("observed") == true)
        let by = try #require(queued.fields["observedBy"] as? [String: Any])
        #expect(by["program"] as? String == "apt-get" && by["user"] as? String == "root", "\(by)")
        #expect((queued.string("name") ?? "").hasPrefix("apt-get install -y lab-app — root"), "\(queued)")
        let updates = queued.fields["updates"] as? [[String: Any]] ?? []
        #expect(Set(updates.compactMap { $0["id"] as? String }) == ["lab-base", "lab-app"])
        #expect(Set(updates.compactMap { $0["title"] as? String }) == ["lab-base 1.0", "lab-app 1.0"])
        let completed = events.filter { $0.name == "update.completed" }
        #expect(completed.count == 2 && completed.allSatisfy { $0.string("result") == "succeeded" }, "\(completed)")
        // dpkg's phases come through the hooks' relay, which drops what the engine's socket has
        // no room for rather than slow dpkg (rule 31) and says how many (`droppedLines`). Only
        // the first dpkg run's are certain to come before the job ends: dpkg does not wait for
        // its status logger, so apt's Post-Invoke hook (the job's end) can overtake the logger
        // of its last run (`--configure --pending`). Seen in a loaded fresh-clone run: phases
        // ["dpkg: install", "unpacking", "unpacked", "dpkg: install", "unpacking", "unpacked"],
        // none dropped, both packages settled as succeeded from dpkg's final state.
        let dropped = events.first { $0.name == "job.completed" }?.int("droppedLines") ?? 0
        let phases = events.filter { $0.name == "progress" }.compactMap { $0.string("message") }
        #expect(dropped > 0 || phases.contains { $0.contains("unpacking") },
                "phases from dpkg's lines: \(phases), dropped \(dropped)")
        #expect(try setup.apt.states().filter { $0.value.status == "ii" }.keys.sorted() == ["lab-app", "lab-base"])

        // status says it too: `observed` and `observedBy` as in job.queued, and a line below the tables.
        let job = try #require(queued.job)
        let status = try #require(try await setup.fixture.statusJob(job))
        #expect(status["observed"] as? Bool == true, "\(status)")
        let statusBy = try #require(status["observedBy"] as? [String: Any], "\(status)")
        #expect(statusBy["program"] as? String == "apt-get" && (statusBy["pid"] as? NSNumber)?.intValue == (by["pid"] as? NSNumber)?.intValue,
                "\(statusBy)")
        #expect((statusBy["admindir"] as? String)?.split(separator: "/") == (setup.apt.root + "/var/lib/dpkg").split(separator: "/"),
                "the dpkg it checks: \(statusBy)")
        let table = try await setup.fixture.run(["status"])
        #expect(table.stdout.contains("job \(job): observed: apt-get (pid \((by["pid"] as? NSNumber)?.intValue ?? 0)) run by root"),
                "\(table.stdout)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("A failing postinst fails its package; a removal is an uninstall job that succeeds")
    func failureAndRemoval() async throws {
        let host = HostPackageFingerprint()
        let setup = try await Setup([
            TestPackage(name: "lab-good"),
            TestPackage(name: "lab-broken", postinst: "echo broken >&2\nexit 1"),
        ])
        defer { setup.remove() }

        let failed = try setup.apt.aptGet(["install", "-y", "lab-good", "lab-broken"])
        #expect(failed.status == 100)
        let first = try await setup.observedJob()
        let results = Dictionary(first.filter { $0.name == "update.completed" }.map { ($0.string("id") ?? "", $0.string("result") ?? "") }) { a, _ in a }
        #expect(results["lab-broken"] == "failed", "\(results)")
        #expect(results["lab-good"] == (try setup.apt.states()["lab-good"]?.status == "ii" ? "succeeded" : results["lab-good"]), "\(results)")

        _ = try setup.apt.aptGet(["remove", "-y", "lab-broken", "lab-good"])
        let second = try await setup.observedJob()
        let queued = try #require(second.first { $0.name == "job.queued" })
        #expect(queued.string("operation") == "uninstall")
        let removed = second.filter { $0.name == "update.completed" }
        #expect(removed.count == 2 && removed.allSatisfy { $0.string("result") == "succeeded" }, "\(removed)")
        #expect(try setup.apt.states().values.allSatisfy { $0.status != "ii" })
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("An abort is refused with the reason; apt-get killed (SIGKILL) during a slow postinst: the job ends, its packages checked against dpkg")
    func killedApt() async throws {
        let host = HostPackageFingerprint()
        let setup = try await Setup([
            TestPackage(name: "lab-slow", postinst: "while [ ! -e \"$DPKG_ROOT/release\" ]; do sleep 0.05; done"),
            TestPackage(name: "lab-later", depends: "lab-slow"),
        ])
        defer { setup.remove() }

        let folder = setup.fixture.folder
        let release = setup.apt.root + "/release"
        let output = try folder.write("apt.out", "")
        let errors = try folder.write("apt.err", "")
        let apt = try SpawnedProcess(
            executable: "/usr/bin/apt-get", arguments: ["install", "-y", "-o", "APT::Immediate-Configure-All=1", "lab-later"],
            environment: ProcessInfo.processInfo.environment.merging(setup.apt.environment) { _, new in new },
            workingDirectory: folder.path, stdoutPath: output, stderrPath: errors)
        defer {
            if apt.poll() == nil { kill(apt.pid, SIGKILL) }
            _ = apt.waitBlocking()
            // dpkg (on its own pty, in its own session) may outlive apt: let its postinst end.
            _ = FileManager.default.createFile(atPath: release, contents: nil)
        }
        let started = try await setup.client.read(until: "lab-slow configuring") {
            $0.name == "progress" && ($0.string("message") ?? "").contains("configuring")
        }
        let queued = try #require(started.first { $0.name == "job.queued" && $0.bool("observed") == true })
        let abort = try await setup.fixture.run(["abort", "\(try #require(queued.job))"])
        #expect(abort.status == 1 && abort.stderr.contains("only watches"), "rule 29: refused with a reason: \(abort)")
        kill(apt.pid, SIGKILL)
        _ = apt.waitBlocking()
        _ = FileManager.default.createFile(atPath: release, contents: nil)
        let events = try await setup.observedJob()
        let results = Dictionary(events.filter { $0.name == "update.completed" }.map { ($0.string("id") ?? "", $0.string("result") ?? "") }) { a, _ in a }
        #expect(results["lab-later"] == "aborted", "never reached: \(results)")
        let slow = try setup.apt.states()["lab-slow"]?.status
        #expect(results["lab-slow"] == (slow == "ii" ? "succeeded" : "failed"), "as dpkg left it (\(slow ?? "none")): \(results)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    /// With archives named as apt names them, dpkg's arguments give both packages from the start;
    /// under other names the second is added when dpkg names it.
    @Test("dpkg -i of two local archives with the hooks' status logger: the second package is in the job from the start or added when dpkg names it, and both succeed",
          arguments: [true, false])
    func handDpkgOfTwoArchives(namedInArguments: Bool) async throws {
        let host = HostPackageFingerprint()
        let first = TestPackage(name: "lab-first", preinst: "while [ ! -e \"$DPKG_ROOT/go\" ]; do sleep 0.05; done")
        let second = TestPackage(name: "lab-second", version: "2.0")
        let setup = try await Setup([first, second])
        defer { setup.remove() }
        let go = setup.apt.root + "/go"
        let logger = try #require(try HandDpkgInstall.hooksStatusLogger(in: setup.apt), "the hooks' status logger")
        let files = namedInArguments ? ["lab-first_1.0_all", "lab-second_2.0_all"] : ["one", "two"]
        let dpkg = try HandDpkgInstall.start([(first, files[0]), (second, files[1])], in: setup.apt, folder: setup.fixture.folder, statusLogger: logger)
        defer {
            _ = FileManager.default.createFile(atPath: go, contents: nil)
            if dpkg.poll() == nil { kill(dpkg.pid, SIGKILL) }
            _ = dpkg.waitBlocking()
        }

        // lab-first's preinst holds dpkg until `go`: its lines have not named lab-second yet.
        let before = try await setup.client.read(until: "the observed job of dpkg -i", timeout: .seconds(90)) {
            $0.name == "job.queued" && $0.bool("observed") == true
        }
        let queued = try #require(before.last)
        let updates = queued.fields["updates"] as? [[String: Any]] ?? []
        #expect(updates.compactMap { $0["id"] as? String } == (namedInArguments ? ["lab-first", "lab-second"] : ["lab-first"]), "\(updates)")
        if namedInArguments { #expect(updates.contains { $0["title"] as? String == "lab-second 2.0" }, "the version from the archive's name: \(updates)") }
        #expect((queued.string("name") ?? "").contains("plan partial"), "\(queued)")

        _ = FileManager.default.createFile(atPath: go, contents: nil)
        #expect(dpkg.waitBlocking() == 0)
        let events = try await setup.observedJob()
        let started = try #require(events.first { $0.name == "update.started" && $0.string("id") == "lab-second" })
        if namedInArguments {
            #expect(started.fields["added"] == nil, "in the job already: \(started)")
        } else {
            let item = try #require(started.fields["added"] as? [String: Any], "update.started says the update is added: \(started)")
            #expect((item["index"] as? NSNumber)?.intValue == 1 && item["id"] as? String == "lab-second", "\(item)")
        }
        let results = Dictionary(events.filter { $0.name == "update.completed" }.map { ($0.string("id") ?? "", $0.string("result") ?? "") }) { a, _ in a }
        #expect(results == ["lab-first": "succeeded", "lab-second": "succeeded"], "\(results)")
        #expect(try setup.apt.states().filter { $0.value.status == "ii" }.keys.sorted() == ["lab-first", "lab-second"])
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
