import APTTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// `installtop hooks install|status|remove --apt-config` in a private apt root, and plain
/// `apt-get` runs through the hooks it writes: a missing relay or a stopped engine never
/// changes apt's exit status or leaves dpkg's database unclean (rule 31).
@Suite("installtop hooks", .serialized)
struct HooksTests {
    private let lab = [
        TestPackage(name: "lab-base", postinst: "echo configuring lab-base"),
        TestPackage(name: "lab-app", depends: "lab-base", postinst: "echo configuring lab-app"),
    ]

    private func hookFile(_ apt: APTTestRoot) -> String { apt.root + "/etc/apt/apt.conf.d/99installtop-observe" }

    @Test("status says what is installed and whether an engine listens; remove leaves no file behind")
    func statusInEachState() async throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let fixture = try DaemonFixture()
        defer { fixture.folder.remove() }
        let folder = fixture.folder
        let parts = apt.root + "/etc/apt/apt.conf.d"
        let before = try FileManager.default.contentsOfDirectory(atPath: parts).sorted()
        let hooks = ["--apt-config", apt.configuration, "--socket", fixture.socket]

        let none = try await installtop(["hooks", "status"] + hooks, in: folder)
        #expect(none.status == 1 && none.stdout.contains("missing:   \(hookFile(apt))"), "\(none)")

        let installed = try await installtop(["hooks", "install"] + hooks, in: folder)
        #expect(installed.status == 0, "\(installed)")
        let text = try String(contentsOfFile: hookFile(apt), encoding: .utf8)
        #expect(text.contains("--status-logger="), "a private root gets the status logger through DPkg::Options")
        #expect(text.contains("DPkg::Tools::Options::") && text.contains("::Version \"3\""))
        #expect(!FileManager.default.fileExists(atPath: "/etc/apt/apt.conf.d/99installtop-observe"), "the host's apt is untouched")

        let quiet = try await installtop(["hooks", "status"] + hooks, in: folder)
        #expect(quiet.status == 0, "\(quiet)")
        #expect(quiet.stdout.contains("installed: \(hookFile(apt))") && quiet.stdout.contains("no engine listens"), "\(quiet.stdout)")
        #expect(quiet.stdout.contains("installtop-relay (present)"), "\(quiet.stdout)")

        try await fixture.start()
        let listening = try await installtop(["hooks", "status"] + hooks, in: folder)
        #expect(listening.status == 0 && listening.stdout.contains("an engine listens"), "\(listening.stdout)")

        let removed = try await installtop(["hooks", "remove"] + hooks, in: folder)
        #expect(removed.status == 0 && removed.stdout.contains("removed \(hookFile(apt))"), "\(removed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parts).sorted() == before)
        let gone = try await installtop(["hooks", "status"] + hooks, in: folder)
        #expect(gone.status == 1, "\(gone.stdout)")
    }

    @Test("A relay that is not there (removed after hooks install): apt-get exits 0 and dpkg's database is clean")
    func missingRelay() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish(lab)
        let folder = try TestFolder()
        defer { folder.remove() }

        let installed = try await installtop(
            ["hooks", "install", "--apt-config", apt.configuration, "--socket", folder.file("engine.sock"),
             "--relay", folder.file("gone/installtop-relay")], in: folder)
        #expect(installed.status == 0 && installed.stdout.contains("is not there yet"), "\(installed)")

        let run = try apt.aptGet(["install", "-y", "lab-app"])
        #expect(run.status == 0, "apt-get failed through a hook whose relay is missing:\n\(run.stdout)\n\(run.stderr)")
        #expect(try apt.states().filter { $0.value.status == "ii" }.keys.sorted() == ["lab-app", "lab-base"])
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("The engine stopped (SIGSTOP) during a transaction: apt-get exits 0 and dpkg's database is clean")
    func stoppedEngine() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        // Enough status lines to fill a socket nobody reads.
        try apt.publish((1...40).map { TestPackage(name: "lab-many-\($0)", postinst: "echo configuring") })
        let fixture = try DaemonFixture()
        defer { fixture.folder.remove() }
        let serve = try await fixture.start()
        let installed = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket], in: fixture.folder)
        #expect(installed.status == 0, "\(installed)")

        serve.send(SIGSTOP)
        defer { serve.send(SIGCONT) }
        let run = try apt.aptGet(["install", "-y"] + (1...40).map { "lab-many-\($0)" })
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(try apt.states().filter { $0.value.status == "ii" }.count == 40)
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    /// A package whose postinst says it began and waits for `release` in the root.
    private static let held = TestPackage(name: "lab-held", postinst: """
        touch "$DPKG_ROOT/held-started"
        while [ ! -e "$DPKG_ROOT/release" ]; do sleep 0.05; done
        """)

    /// `apt-get install packages` in the background, through `apt`'s hooks; its output in `folder`.
    private func backgroundAptGet(_ packages: [String], _ apt: APTTestRoot, in folder: TestFolder) throws -> SpawnedProcess {
        try SpawnedProcess(
            executable: "/usr/bin/apt-get", arguments: ["install", "-y"] + packages,
            environment: ProcessInfo.processInfo.environment.merging(apt.environment) { _, new in new },
            workingDirectory: folder.path, stdoutPath: try folder.write("apt.out", ""), stderrPath: try folder.write("apt.err", ""))
    }

    @Test("The engine stopped, then killed, in a postinst: apt-get exits 0, dpkg is clean, and the next transaction is seen once an engine is back")
    func killedEngineThenBack() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish(lab + [Self.held])
        let fixture = try DaemonFixture()
        defer { fixture.folder.remove() }
        let serve = try await fixture.start()
        let installed = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket], in: fixture.folder)
        #expect(installed.status == 0, "\(installed)")

        serve.send(SIGSTOP)
        let aptGet = try backgroundAptGet(["lab-held"], apt, in: fixture.folder)
        defer {
            _ = FileManager.default.createFile(atPath: apt.root + "/release", contents: nil)
            if aptGet.poll() == nil { kill(aptGet.pid, SIGKILL) }
            _ = aptGet.waitBlocking()
        }
        try await waitUntil("lab-held's postinst to begin") { FileManager.default.fileExists(atPath: apt.root + "/held-started") }
        serve.send(SIGKILL)
        _ = FileManager.default.createFile(atPath: apt.root + "/release", contents: nil)
        try await waitUntil("apt-get to end") { aptGet.poll() != nil }
        #expect(aptGet.poll() == 0, "\(Self.output(of: fixture.folder))")
        #expect(try apt.states()["lab-held"]?.status == "ii")
        #expect(try apt.audit().isEmpty)

        try await fixture.start()
        let client = try await RawClient.subscribed(to: fixture.socket)
        defer { client.close() }
        let next = try apt.aptGet(["install", "-y", "lab-app"])
        #expect(next.status == 0, "\(next.stdout)\n\(next.stderr)")
        let events = try await client.read(until: "the next transaction's job.completed", timeout: .seconds(90)) { $0.name == "job.completed" }
        #expect(events.contains { $0.name == "job.queued" && $0.bool("observed") == true }, "\(events.map(\.name))")
        let results = events.filter { $0.name == "update.completed" }.map { ($0.string("id") ?? "", $0.string("result") ?? "") }
        #expect(results.sorted { $0.0 < $1.0 }.map(\.0) == ["lab-app", "lab-base"] && results.allSatisfy { $0.1 == "succeeded" }, "\(results)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("The relay killed in the middle of a slow postinst: apt-get exits 0 and dpkg's database is clean")
    func killedRelay() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([Self.held])
        let fixture = try DaemonFixture()
        defer { fixture.folder.remove() }
        try await fixture.start()
        let installed = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket], in: fixture.folder)
        #expect(installed.status == 0, "\(installed)")

        let aptGet = try backgroundAptGet(["lab-held"], apt, in: fixture.folder)
        defer {
            _ = FileManager.default.createFile(atPath: apt.root + "/release", contents: nil)
            if aptGet.poll() == nil { kill(aptGet.pid, SIGKILL) }
            _ = aptGet.waitBlocking()
        }
        try await waitUntil("lab-held's postinst to begin") { FileManager.default.fileExists(atPath: apt.root + "/held-started") }
        // dpkg's status logger, a descendant of the apt-get this test started. dpkg does not wait
        // for its logger to start: under load the postinst can begin while the logger's shell
        // has not yet started the relay.
        var relays: [pid_t] = []
        try await waitUntil("a relay under apt-get \(aptGet.pid)") {
            relays = Self.descendants(of: aptGet.pid).filter(Self.isRelay)
            return !relays.isEmpty
        }
        for relay in relays { kill(relay, SIGKILL) }
        _ = FileManager.default.createFile(atPath: apt.root + "/release", contents: nil)
        try await waitUntil("apt-get to end") { aptGet.poll() != nil }
        #expect(aptGet.poll() == 0, "\(Self.output(of: fixture.folder))")
        #expect(try apt.states()["lab-held"]?.status == "ii")
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    /// What the background apt-get printed, for a failure's message.
    private static func output(of folder: TestFolder) -> String {
        ["apt.out", "apt.err"].map { (try? String(contentsOfFile: folder.file($0), encoding: .utf8)) ?? "" }.joined(separator: "\n")
    }

    /// Whether process `pid` is a relay: started as `installtop-relay`, whether that is a program
    /// of its own (a checkout's build) or the package's link to `installtop`, whose executable
    /// then reads as `installtop` (with `INSTALLTOP_BINARY` set to an installed package's).
    private static func isRelay(_ pid: pid_t) -> Bool {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        let commandLine = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        let startedAs = String(decoding: commandLine.prefix { $0 != 0 }, as: UTF8.self)
        return executable.hasSuffix("/installtop-relay") || startedAs.hasSuffix("installtop-relay")
    }

    /// Every process whose chain of parents reaches `root`, read from `/proc`.
    private static func descendants(of root: pid_t) -> [pid_t] {
        var parents: [pid_t: pid_t] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            // The state, then the parent's pid.
            guard let pid = pid_t(entry), let fields = ProcessStat.fields(in: "/proc/\(pid)") else { continue }
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[pid] = parent }
        }
        return parents.keys.filter { pid in
            var current = pid
            while let parent = parents[current], parent > 1 {
                if parent == root { return true }
                current = parent
            }
            return false
        }
    }
}
