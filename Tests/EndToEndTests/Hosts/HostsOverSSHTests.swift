import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// `status` and `abort` across namespace test hosts (Documentation/FLEET-FACTS.md), each with its own sshd, private
/// /run and `installtop serve` on the default socket there, reached from the controller
/// namespace with the operator's `ssh` and the fleet's ssh_config; the remote command is the
/// built `installtop bridge`, which finds its host's engine at the default socket.
@Suite("hosts over ssh: namespace hosts", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct HostsOverSSHTests {
    @Test("status --json across h1…h4 equals each host's own status --json, h4 (sshd stopped) unreachable with ssh's words, exit 1; abort --host h2 stops h2's job only")
    func statusAndAbortAcrossHosts() async throws {
        let fleet = try FleetTestHosts(count: 4)
        defer { fleet.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let binary = try InstalltopBinary.path()
        let socket = "/run/installtop.sock"

        // One engine per host, in the host's namespaces: its socket is in the host's own /run.
        var engines: [InstalltopProcess] = []
        for host in 1...3 {
            let quietAPT = try APTTestRoot(folder: folder.file("quiet-apt-h\(host)"))
            let command = try fleet.command(onHost: host, [binary, "serve", "--socket", socket, "--no-history", "--apt-config", quietAPT.configuration])
            engines.append(try InstalltopProcess(Array(command.dropFirst()), in: folder, executable: command[0]))
        }
        defer { for engine in engines { kill(engine.pid, SIGKILL) } }
        for (index, engine) in engines.enumerated() {
            try await waitUntil("serve on h\(index + 1) to listen; stderr:\n\(engine.stderr)") { engine.stderr.contains("serving on \(socket)") }
        }
        let script = try folder.script("sleep.sh", "exec sleep 900")
        for host in 1...2 {
            let manifest = try folder.write("h\(host).yaml", """
                jobs:
                  - name: Slow job on h\(host)
                    updates:
                      - {id: sleep, title: Sleep, install: [\(script)]}
                """)
            let submitted = try fleet.run(onHost: host, "'\(binary)' submit '\(manifest)' --socket \(socket)")
            #expect(submitted.status == 0, "\(submitted.stdout)\(submitted.stderr)")
        }
        func ownJobs(_ host: Int) throws -> [[String: Any]] {
            let status = try fleet.run(onHost: host, "'\(binary)' status --json --socket \(socket)")
            let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            return try #require(object?["jobs"] as? [[String: Any]], "h\(host): \(status.stdout)\(status.stderr)")
        }
        func state(_ host: Int) throws -> String? { try ownJobs(host).first?["state"] as? String }
        func bridges(on host: Int) throws -> [String] { try self.bridges(on: host, of: fleet) }
        try await waitUntil("both jobs to run") { try state(1) == "running" && state(2) == "running" }
        try fleet.stopSSHD(host: 4)

        let status = try await installtopInController(fleet, folder: folder, [
            binary, "status", "--json", "--host", "h1", "--host", "h2", "--host", "h3", "--host", "h4",
            "--ssh-config", fleet.sshConfigPath, "--remote-command", "\(binary) bridge",
        ])
        #expect(status.status == 1, "\(status.stdout)\(status.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any], "\(status.stdout)\(status.stderr)")
        let hosts = try #require(document["hosts"] as? [[String: Any]])
        #expect(hosts.map { $0["host"] as? String } == ["h1", "h2", "h3", "h4"])
        for host in 1...3 {
            #expect(hosts[host - 1]["reachable"] as? Bool == true, "\(hosts[host - 1])")
            let own = try ownJobs(host)
            #expect((hosts[host - 1]["jobs"] as? NSArray) == own as NSArray, "h\(host): \(hosts[host - 1]) against its own \(own)")
        }
        #expect(try ownJobs(3).isEmpty)
        #expect(hosts[3]["reachable"] as? Bool == false)
        let error = try #require(hosts[3]["error"] as? String, "\(hosts[3])")
        #expect(error.hasPrefix("ssh: connect to host 10.77.0.14 port 22: "), "\(error)")

        let abort = try await installtopInController(fleet, folder: folder, [
            binary, "abort", "1", "--host", "h2", "--ssh-config", fleet.sshConfigPath, "--remote-command", "\(binary) bridge",
        ])
        #expect(abort.status == 0, "\(abort.stderr)")
        #expect(abort.stdout == "h2: job 1: abort requested\n")
        try await waitUntil("h2's job to be aborted") { try state(2) == "aborted" }
        #expect(try state(1) == "running", "h1's job runs on")

        // Each client ended its ssh; each host's bridge sees its session gone and exits, without
        // the teardown's help.
        for host in 1...3 {
            try await waitUntil("h\(host)'s bridges to exit; left: \(try bridges(on: host))") { try bridges(on: host).isEmpty }
        }
    }

    /// The command lines of the `installtop bridge` processes in host `host`'s network namespace.
    private func bridges(on host: Int, of fleet: FleetTestHosts) throws -> [String] {
        let script = #"""
            self=$(readlink /proc/self/ns/net)
            for process in /proc/[0-9]*; do
              [ "$(readlink "$process/ns/net" 2>/dev/null)" = "$self" ] || continue
              tr '\0' ' ' < "$process/cmdline" 2>/dev/null; echo
            done
            """#
        return try fleet.run(onHost: host, script).stdout.split(separator: "\n").map(String.init).filter { $0.contains("installtop bridge") }
    }

    /// Runs `arguments` (an absolute program first) in the controller namespace, where the
    /// fleet's addresses are reachable, and waits for it.
    private func installtopInController(_ fleet: FleetTestHosts, folder: TestFolder, _ arguments: [String]) async throws -> RunResult {
        let command = fleet.controllerCommand(arguments)
        return try await InstalltopProcess(Array(command.dropFirst()), in: folder, executable: command[0]).finish(timeout: .seconds(180))
    }
}
