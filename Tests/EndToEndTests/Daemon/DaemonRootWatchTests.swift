import APTTestSupport
import Foundation
import Glibc
import Testing

/// The engine's pending snapshot follows its root whoever changes it (Documentation/MANY-HOSTS.md
/// "Rows that follow the host"): apt-get and dpkg run by hand, without the hooks, are each seen
/// and pushed to a subscriber as a `pending` event, with no question asked; and `serve` ends at
/// once on SIGTERM while a snapshot's apt hangs.
@Suite("daemon: the root watched", .serialized)
struct DaemonRootWatchTests {
    @Test("apt-get install by hand fails in a postinst, dpkg --configure -a by hand finishes it: each pushed to a subscriber, as dpkg says")
    func changesByHandArePushed() async throws {
        let daemon = try DaemonFixture(history: false)
        defer { daemon.remove() }
        let apt = try APTTestRoot(folder: daemon.folder.file("apt"))
        try apt.publish([TestPackage(name: "lab-app")])
        try apt.aptGet(["-y", "install", "lab-app"], check: true)
        // 2.0's postinst fails while ROOT/tmp/fail exists: apt-get leaves it half-configured.
        try apt.publish([TestPackage(name: "lab-app", version: "2.0", postinst: """
            if [ -e "$DPKG_ROOT/tmp/fail" ]; then echo "lab-app: cannot configure" >&2; exit 1; fi
            """)])
        try FileManager.default.createDirectory(atPath: apt.root + "/tmp", withIntermediateDirectories: true)
        try await daemon.start(extraArguments: ["--apt-config", apt.configuration])
        let client = try await RawClient.subscribed(to: daemon.socket, pendingEvents: true)
        defer { client.close() }
        // A second board: the engine computes once for both.
        let second = try await RawClient.subscribed(to: daemon.socket, pendingEvents: true)
        defer { second.close() }

        let first = try await settledPending(client, "the first snapshot") { $0.packages == ["lab-app"] }
        #expect(first.notFullyInstalled.isEmpty)

        _ = FileManager.default.createFile(atPath: apt.root + "/tmp/fail", contents: nil)
        let install = try apt.aptGet(["-y", "install", "lab-app"])
        #expect(install.status != 0, "the postinst fails: \(install.stdout)")
        let failedAt = ContinuousClock.now
        let failed = try await settledPending(client, "the half-configured package") { !$0.notFullyInstalled.isEmpty }
        let seenFailed = ContinuousClock.now - failedAt
        #expect(failed.notFullyInstalled.first?.hasPrefix("lab-app") == true, "\(failed)")
        #expect(try apt.states()["lab-app"]?.isHalfWay == true, "dpkg agrees")

        try FileManager.default.removeItem(atPath: apt.root + "/tmp/fail")
        // As the root's own dpkg options say (its log inside it: never the machine's).
        let configure = try TestCommand.run(["/usr/bin/dpkg", "--root=\(apt.root)", "--admindir=\(apt.root)/var/lib/dpkg",
                                             "--log=\(apt.root)/var/log/dpkg.log", "--force-script-chrootless", "--configure", "-a"],
                                            environment: apt.environment)
        #expect(configure.status == 0, "\(configure.stdout)\(configure.stderr)")
        let configuredAt = ContinuousClock.now
        let fixed = try await settledPending(client, "the package configured by hand") { $0.notFullyInstalled.isEmpty }
        let seenFixed = ContinuousClock.now - configuredAt
        #expect(fixed.packages.isEmpty, "\(fixed)")
        // The very snapshot the first board got: computed once, pushed to both.
        let fixedToo = try await settledPending(second, "the first board's snapshot, on the second board") { $0.computedAt == fixed.computedAt }
        #expect(fixedToo.notFullyInstalled.isEmpty && fixedToo.packages.isEmpty)
        #expect(try apt.states()["lab-app"]?.version == "2.0")
        // Not a timed assertion: the figure goes in BENCHMARKS.md and the note.
        print("root-watch: a change by hand pushed \(seenFailed) (apt-get) and \(seenFixed) (dpkg --configure -a) after it ended")
    }

    @Test("SIGTERM while a snapshot's apt hangs: serve ends at once, and leaves no apt behind")
    func sigtermDuringSnapshot() async throws {
        let daemon = try DaemonFixture(history: false)
        defer { daemon.remove() }
        let apt = try APTTestRoot(folder: daemon.folder.file("apt"))
        try apt.publish([TestPackage(name: "lab-app")])
        try apt.aptGet(["-y", "install", "lab-app"], check: true)
        // A status file that is a FIFO with no writer: every reader of it (apt-get -s, dpkg-query)
        // waits for ever, as a snapshot's apt held up by a slow disk or a huge database would.
        let status = apt.root + "/var/lib/dpkg/status"
        try FileManager.default.removeItem(atPath: status)
        #expect(mkfifo(status, 0o644) == 0)
        let serve = try await daemon.start(extraArguments: ["--apt-config", apt.configuration])
        // The snapshot's computation is under way: its apt-get or dpkg-query waits on the status.
        try await waitUntil("the snapshot's apt to start") { !snapshotProcesses(of: serve).isEmpty }
        serve.send(SIGTERM)
        let stopped = try await serve.finish(timeout: .seconds(60))
        #expect(stopped.status == 0, "\(stopped.stderr)")
        // From serve's own log: the test's poll for its end, on the test runner's pool beside
        // the whole suite, once took 11 s to notice what serve did in milliseconds.
        let took = try #require(Self.logged("stopped; every job has completed", in: stopped.stderr))
            .timeIntervalSince(try #require(Self.logged("SIGTERM: taking no new jobs", in: stopped.stderr)))
        #expect(took < 10, "serve took \(took) s to end, by its log:\n\(stopped.stderr)")
        #expect(serve.leftovers.isEmpty, "left behind: \(serve.leftovers)")
        print("root-watch: serve ended \(took) s after SIGTERM by its log, a snapshot's apt hung")
    }

    @Test("SIGTERM while serve starts and its apt-config hangs: it ends at once with 0, and leaves no apt-config behind")
    func sigtermWhileStarting() async throws {
        let daemon = try DaemonFixture(history: false)
        defer { daemon.remove() }
        // apt-config waits for ever on an included FIFO with no writer.
        let fifo = daemon.folder.file("hang.conf")
        #expect(mkfifo(fifo, 0o644) == 0)
        let configuration = try daemon.folder.write("apt.conf", "#include \"\(fifo)\";\n")
        let serve = try InstalltopProcess(["serve", "--socket", daemon.socket, "--no-history", "--apt-config", configuration], in: daemon.folder)
        try await waitUntil("serve's apt-config to start") {
            serve.leftovers.contains { pid in
                // Its own command line names --apt-config: the program's, first.
                ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").hasPrefix("/usr/bin/apt-config")
            }
        }
        serve.send(SIGTERM)
        let stopped = try await serve.finish(timeout: .seconds(60))
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("stopped before serving"), "\(stopped.stderr)")
        // By serve's own log, as above: not the test's poll.
        let took = try #require(Self.logged("stopped before serving", in: stopped.stderr))
            .timeIntervalSince(try #require(Self.logged("SIGTERM while starting", in: stopped.stderr)))
        #expect(took < 10, "serve took \(took) s to end, by its log:\n\(stopped.stderr)")
        #expect(serve.leftovers.isEmpty, "left behind: \(serve.leftovers)")
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }

    // MARK: - Helpers

    /// When serve logged its first line containing `text` (each line begins with the time).
    private static func logged(_ text: String, in log: String) -> Date? {
        log.split(separator: "\n").first { $0.contains(text) }
            .flatMap { $0.split(separator: " ").first }.flatMap { ISO8601DateFormatter.withFractions.date(from: String($0)) }
    }

    /// What a `pending` event says, as the test reads it.
    private struct Pending {
        var packages: [String]
        var notFullyInstalled: [String]
        var computedAt: String
    }

    /// Reads the subscription until a `pending` event that is not computing and whose snapshot
    /// satisfies `match`.
    private func settledPending(_ client: RawClient, _ what: String, _ match: (Pending) -> Bool) async throws -> Pending {
        var found: Pending?
        _ = try await client.read(until: what, timeout: .seconds(120)) { event in
            guard event.string("event") == "pending", event.bool("computing") == false,
                  let snapshot = event.fields["snapshot"] as? [String: Any] else { return false }
            let names = (snapshot["packages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            let pending = Pending(packages: names, notFullyInstalled: snapshot["notFullyInstalled"] as? [String] ?? [],
                                  computedAt: snapshot["computedAt"] as? String ?? "")
            guard match(pending) else { return false }
            found = pending
            return true
        }
        return try #require(found)
    }

    /// The snapshot's processes among those `serve` started: apt's and dpkg's readers.
    private func snapshotProcesses(of serve: InstalltopProcess) -> [pid_t] {
        serve.leftovers.filter { pid in
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            return command.contains("apt-get") || command.contains("dpkg-query") || command.contains("apt-cache")
        }
    }
}
