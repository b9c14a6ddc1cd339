import APTTestSupport
import Foundation
import Glibc
import Testing

/// An engine killed while it watches a transaction (rule 30 with rule 20): apt goes on without
/// it, and the next engine settles the watched packages' history rows from dpkg's final state
/// and log, never as "interrupted" for a package dpkg shows installed.
@Suite("observed jobs: recovery after the engine died", .serialized)
struct ObservedRecoveryTests {
    @Test("serve SIGKILLed during lab-slow's postinst, apt finishes: the next serve records it succeeded from dpkg's state; lab-bad, whose preinst failed after the kill, failed: not installed")
    func settledFromDpkg() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-slow", postinst: "while [ ! -e \"$DPKG_ROOT/release-slow\" ]; do sleep 0.05; done"),
            TestPackage(name: "lab-bad", preinst: "while [ ! -e \"$DPKG_ROOT/release-bad\" ]; do sleep 0.05; done\nexit 1"),
        ])
        let fixture = try DaemonFixture(history: true)
        defer { fixture.remove() }
        // serve follows the root's dpkg too: its jobs then know the root's log.
        try await fixture.start(extraArguments: ["--apt-config", apt.configuration])
        let hooks = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket], in: fixture.folder)
        try #require(hooks.status == 0, "\(hooks.stdout)\(hooks.stderr)")

        // lab-slow: the engine dies while dpkg runs its postinst; apt-get then ends well.
        let slow = try await Self.killServe(fixture, during: ["install", "-y", "lab-slow"], in: apt, release: "release-slow") {
            $0.name == "progress" && ($0.string("message") ?? "").lowercased().contains("configuring")
        }
        #expect(slow == 0, "apt-get install lab-slow: \((try? String(contentsOfFile: fixture.folder.file("apt.err"), encoding: .utf8)) ?? "")")
        #expect(try apt.states()["lab-slow"]?.status == "ii")

        try await fixture.start(extraArguments: ["--apt-config", apt.configuration])
        let first = try await Self.rows(fixture)
        let row = try #require(first["lab-slow"], "\(first)")
        #expect(row["result"] as? String == "succeeded", "from dpkg's state, not interrupted: \(row)")
        let reason = row["reason"] as? String ?? ""
        #expect(reason.hasPrefix("from dpkg's state: installed at 1.0 (dpkg's log: installed at "), "\(row)")
        #expect(reason.contains("the engine that watched it stopped"), "\(row)")
        #expect(row["durationMs"] is NSNumber, "dated by dpkg's log: \(row)")
        #expect(row["running"] as? Bool == false)

        // lab-bad: the engine dies while its preinst runs; dpkg then fails it and removes it.
        let bad = try await Self.killServe(fixture, during: ["install", "-y", "lab-bad"], in: apt, release: "release-bad") {
            $0.name == "update.started" && $0.string("id") == "lab-bad"
        }
        #expect(bad == 100, "apt-get install lab-bad fails: \((try? String(contentsOfFile: fixture.folder.file("apt.err"), encoding: .utf8)) ?? "")")
        #expect(try apt.states()["lab-bad"].map { $0.status.dropFirst().first != "i" } ?? true, "dpkg shows lab-bad not installed")

        try await fixture.start(extraArguments: ["--apt-config", apt.configuration])
        let second = try await Self.rows(fixture)
        let failed = try #require(second["lab-bad"], "\(second)")
        #expect(failed["result"] as? String == "failed", "\(failed)")
        let why = failed["reason"] as? String ?? ""
        #expect(why.hasPrefix("dpkg shows it not installed; dpkg's log last shows it not-installed at "), "a truthful reason: \(failed)")
        #expect(!why.contains("interrupted"), "\(failed)")
        #expect(second["lab-slow"]?["result"] as? String == "succeeded", "a settled row is not touched again: \(second)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    /// Starts `apt-get ARGUMENTS` in the root, waits (through a subscriber) until `when` holds
    /// for an event of the observed job, kills serve with SIGKILL, then lets the package's
    /// maintainer script go on (`release` under the root) and returns apt-get's exit status.
    private static func killServe(_ fixture: DaemonFixture, during arguments: [String], in apt: APTTestRoot, release: String,
                                  when: (JSONEvent) -> Bool) async throws -> Int32 {
        let serve = try #require(fixture.serve)
        let client = try await RawClient.subscribed(to: fixture.socket)
        defer { client.close() }
        let released = apt.root + "/" + release
        let aptGet = try SpawnedProcess(
            executable: "/usr/bin/apt-get", arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(apt.environment) { _, new in new },
            workingDirectory: fixture.folder.path, stdoutPath: try fixture.folder.write("apt.out", ""),
            stderrPath: try fixture.folder.write("apt.err", ""))
        defer {
            _ = FileManager.default.createFile(atPath: released, contents: nil)
            if aptGet.poll() == nil { kill(aptGet.pid, SIGKILL) }
            _ = aptGet.waitBlocking()
        }
        _ = try await client.read(until: "the observed job at the point of the kill", timeout: .seconds(90), when)
        serve.send(SIGKILL)
        _ = try await serve.finish()
        _ = FileManager.default.createFile(atPath: released, contents: nil)
        try await waitUntil("apt-get \(arguments.joined(separator: " ")) to end") { aptGet.poll() != nil }
        return aptGet.waitBlocking()
    }

    /// The history's rows by update id (the newest of each), as `history --json` prints them.
    private static func rows(_ fixture: DaemonFixture) async throws -> [String: [String: Any]] {
        let history = try await installtop(["history", "--json", "--history-db", try #require(fixture.historyDatabase)], in: fixture.folder)
        try #require(history.status == 0, "\(history.stderr)")
        var rows: [String: [String: Any]] = [:]
        for line in history.stdout.split(separator: "\n") {
            guard let row = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let id = row["updateId"] as? String, rows[id] == nil else { continue }
            rows[id] = row
        }
        return rows
    }
}
