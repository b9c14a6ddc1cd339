import APTTestSupport
import Foundation
import Testing

/// `pending --host/--hosts`, through the stand-in `ssh` (`FakeSSH`) to two engines on this
/// machine, each serving a private apt root of its own: each host's snapshot as its engine
/// keeps it, an unreachable host with ssh's words.
@Suite("hosts over ssh: pending")
struct PendingHostsTests {
    @Test("pending --host a --host b --host down: a's and b's snapshots as their own engines give them, down unreachable with ssh's words, exit 1; text a section per host")
    func pendingOnHosts() async throws {
        let host = HostPackageFingerprint()
        let a = try DaemonFixture()
        let b = try DaemonFixture()
        defer {
            a.remove()
            b.remove()
        }
        // a has an upgrade waiting, b is up to date.
        for (daemon, newer) in [(a, true), (b, false)] {
            let apt = try APTTestRoot(folder: daemon.folder.file("apt"))
            try apt.publish([TestPackage(name: "lab-app")])
            try apt.aptGet(["-y", "install", "lab-app"], check: true)
            if newer { try apt.publish([TestPackage(name: "lab-app", version: "2.0")]) }
            try await daemon.start(extraArguments: ["--apt-config", apt.configuration])
        }
        let ssh = try FakeSSH(in: a.folder, sockets: ["a": a.socket, "b": b.socket], unreachable: ["down"])
        let bridge = try InstalltopBinary.path() + " bridge"
        func run(_ arguments: [String]) async throws -> RunResult {
            try await installtop(arguments + ["--remote-command", bridge], in: a.folder, environment: ssh.environment.merging(["COLUMNS": "200"]) { _, new in new })
        }

        let result = try await run(["pending", "--json", "--host", "a", "--host", "b", "--host", "down"])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let hosts = try #require(document["hosts"] as? [[String: Any]])
        #expect(hosts.map { $0["host"] as? String } == ["a", "b", "down"])
        for (index, daemon) in [a, b].enumerated() {
            let own = try await daemon.run(["pending", "--json"])
            let ownObject = try #require(try JSONSerialization.jsonObject(with: Data(own.stdout.utf8)) as? [String: Any])
            let snapshot = try #require(hosts[index]["snapshot"] as? [String: Any], "\(hosts[index])")
            #expect(hosts[index]["reachable"] as? Bool == true)
            #expect((snapshot["packages"] as? NSArray) == (ownObject["packages"] as? NSArray), "\(snapshot) against \(ownObject)")
        }
        #expect((hosts[0]["snapshot"] as? [String: Any])?["pending"] as? Int == 1)
        #expect((hosts[1]["snapshot"] as? [String: Any])?["pending"] as? Int == 0)
        #expect(hosts[2] as NSDictionary == [
            "host": "down", "reachable": false, "error": "ssh: connect to host down port 22: Connection refused",
        ] as NSDictionary)

        let text = try await run(["pending", "--host", "a", "--host", "b"])
        #expect(text.status == 0, "\(text.stderr)")
        // Each host's restart advice, when it asks for anything (this machine's processes are
        // not the test's), is left out: from its `Restarts` heading to the host's end.
        var inRestarts = false
        var lines: [String] = []
        for line in text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map({ $0.split(separator: " ").joined(separator: " ") }) {
            if line == "Restarts" {
                // The blank line before the heading goes with it; the one before the next host stays.
                if lines.last == "" { lines.removeLast() }
                inRestarts = true
            } else if line.hasPrefix("== ") {
                if inRestarts { lines.append("") }
                inRestarts = false
            }
            if !inRestarts { lines.append(line) }
        }
        if inRestarts { lines.append("") }
        #expect(lines.count == 7 && lines[0] == "== a ==" && lines[1].hasPrefix("1 pending · lists ") && lines[2] == "lab-app 1.0 → 2.0 localhost"
                && lines[3] == "" && lines[4] == "== b ==" && lines[5].hasPrefix("up to date · lists "), "\(text.stdout)")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }
}
