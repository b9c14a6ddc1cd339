import Foundation
import Glibc
import Testing

/// `status`, `abort` and `cleanup` with `--host`/`--hosts`, through a stand-in `ssh` (see
/// `FakeSSH`) that runs the real `installtop bridge` to two engines on this machine: what the
/// commands print, their JSON, the inventory's ssh options and the exit statuses, without a
/// network. The namespace hosts with their own sshd are `HostsOverSSHTests`'.
@Suite("hosts over ssh: commands")
struct HostsCommandTests {
    /// Two engines (`a`, `b`), each running one job that sleeps until it is aborted, and an
    /// `ssh` that reaches them and knows `down` as a host that refuses connections.
    private final class TwoEngines {
        let a: DaemonFixture
        let b: DaemonFixture
        let ssh: FakeSSH
        let bridge: String

        init() async throws {
            a = try DaemonFixture()
            b = try DaemonFixture()
            try await a.start()
            try await b.start()
            ssh = try FakeSSH(in: a.folder, sockets: ["a": a.socket, "b": b.socket], unreachable: ["down"])
            bridge = try InstalltopBinary.path() + " bridge"
            for (daemon, name) in [(a, "Job on a"), (b, "Job on b")] {
                let manifest = try daemon.manifest(job: name, update: "sleep", script: try daemon.folder.script("sleep.sh", "exec sleep 900"))
                let submitted = try await daemon.run(["submit", manifest])
                #expect(submitted.status == 0, "\(submitted.stderr)")
                try await daemon.waitForJob(1, state: "running")
            }
        }

        /// `installtop arguments --remote-command '<installtop> bridge'` with the fake ssh first on PATH.
        func run(_ arguments: [String]) async throws -> RunResult {
            try await installtop(arguments + ["--remote-command", bridge], in: a.folder, environment: ssh.environment)
        }

        func remove() {
            a.remove()
            b.remove()
        }
    }

    @Test("status --json --host a --host b --host down: one document, each host's jobs as its own status --json gives them; down unreachable with ssh's words; exit 1")
    func statusJSON() async throws {
        let engines = try await TwoEngines()
        defer { engines.remove() }
        let result = try await engines.run(["status", "--json", "--host", "a", "--host", "b", "--host", "down"])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(Array(document.keys) == ["hosts"])
        let hosts = try #require(document["hosts"] as? [[String: Any]])
        #expect(hosts.map { $0["host"] as? String } == ["a", "b", "down"])
        for (index, daemon) in [engines.a, engines.b].enumerated() {
            #expect(Set(hosts[index].keys) == ["host", "reachable", "jobs"])
            #expect(hosts[index]["reachable"] as? Bool == true)
            let own = try await daemon.statusJobs()
            #expect((hosts[index]["jobs"] as? NSArray) == (own as NSArray), "\(hosts[index]) against \(own)")
        }
        #expect(hosts[2] as NSDictionary == [
            "host": "down", "reachable": false, "error": "ssh: connect to host down port 22: Connection refused",
        ] as NSDictionary)
    }

    @Test("status --host in text: a section per host with the local tables, `unreachable:` and ssh's words; every host answering is exit 0")
    func statusText() async throws {
        let engines = try await TwoEngines()
        defer { engines.remove() }
        let own = try await engines.a.run(["status"])
        let result = try await engines.run(["status", "--host", "a", "--host", "down"])
        #expect(result.status == 1)
        #expect(result.stdout == "== a ==\n" + own.stdout + "\n== down ==\nunreachable: ssh: connect to host down port 22: Connection refused\n",
                "\(result.stdout)")
        let both = try await engines.run(["status", "--host", "a", "--host", "b"])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stdout.contains("== b ==\n") && both.stdout.contains("Job on b"), "\(both.stdout)")
    }

    @Test("status --hosts INVENTORY --limit: the pattern's hosts only, each with its ansible_host, ansible_port and ansible_user as ssh options")
    func inventory() async throws {
        let engines = try await TwoEngines()
        defer { engines.remove() }
        let inventory = try engines.a.folder.write("hosts.ini", """
            [web]
            a ansible_host=10.0.0.1 ansible_port=2222
            b
            [web:vars]
            ansible_user=deploy
            [db]
            down
            """)
        let result = try await engines.run(["status", "--json", "--hosts", inventory, "--limit", "web:!b", "--ssh-option", "ConnectTimeout=3"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((document["hosts"] as? [[String: Any]])?.map { $0["host"] as? String } == ["a"], "\(result.stdout)")
        #expect(engines.ssh.arguments(of: "a") == "-o BatchMode=yes -o HostName=10.0.0.1 -p 2222 -l deploy -o ConnectTimeout=3 -- a \(engines.bridge)\n")

        let none = try await engines.run(["status", "--hosts", inventory, "--limit", "nosuch"])
        #expect(none.status == 2 && none.stderr.contains("--limit nosuch selects no host of \(inventory)"), "\(none.stderr)")
        let broken = try engines.a.folder.write("broken.ini", "[web\n")
        let unreadable = try await engines.run(["status", "--hosts", broken])
        #expect(unreadable.status == 2 && unreadable.stderr.contains("\(broken):1: a section header ends with ]"), "\(unreadable.stderr)")
    }

    @Test("abort --host a JOB aborts a's job only, the reply prefixed with the host; several hosts are a usage error; refusals and ssh's failures name the host")
    func abortOneHost() async throws {
        let engines = try await TwoEngines()
        defer { engines.remove() }
        let several = try await engines.run(["abort", "1", "--host", "a", "--host", "b"])
        #expect(several.status == 2 && several.stderr.contains("2 hosts are selected (a, b)"), "\(several.stderr)")

        let abort = try await engines.run(["abort", "1", "--host", "a"])
        #expect(abort.status == 0, "\(abort.stderr)")
        #expect(abort.stdout == "a: job 1: abort requested\n")
        try await engines.a.waitForJob(1, state: "aborted")
        #expect(try await engines.b.statusJob(1)?["state"] as? String == "running", "b's job runs on")

        let refused = try await engines.run(["abort", "7", "--host", "b"])
        #expect(refused.status == 1 && refused.stderr.hasPrefix("installtop: b: "), "\(refused.stderr)")
        let down = try await engines.run(["cleanup", "1", "--host", "down"])
        #expect(down.status == 1)
        #expect(down.stderr == "installtop: down: ssh: connect to host down port 22: Connection refused\n")

        let cleanup = try await engines.run(["cleanup", "1", "--host", "a"])
        #expect(cleanup.status == 0 && cleanup.stdout == "a: job 1: cleaned up\n", "\(cleanup.stdout)\(cleanup.stderr)")
        #expect(try await engines.a.statusJobs().isEmpty)
    }

    @Test("submit --host a --host b --host down queues the manifest's job on a and b (lines prefixed), down fails with ssh's words, exit 1; confirm --host's refusals name the host")
    func submitAndConfirmOnHosts() async throws {
        let engines = try await TwoEngines()
        defer { engines.remove() }
        let manifest = try engines.a.manifest("second.yaml", job: "Second job", update: "sleep", script: try engines.a.folder.script("sleep2.sh", "exec sleep 900"))
        let submitted = try await engines.run(["submit", manifest, "--host", "a", "--host", "b", "--host", "down"])
        #expect(submitted.status == 1, "\(submitted.stdout)\(submitted.stderr)")
        #expect(submitted.stdout == "a: job 2 queued: Second job (install, 1 update)\nb: job 2 queued: Second job (install, 1 update)\n",
                "\(submitted.stdout)")
        #expect(submitted.stderr == "installtop: down: ssh: connect to host down port 22: Connection refused\n", "\(submitted.stderr)")
        #expect(try await engines.a.statusJob(2)?["name"] as? String == "Second job")
        #expect(try await engines.b.statusJob(2)?["name"] as? String == "Second job")

        let json = try await engines.run(["submit", manifest, "--json", "--host", "b"])
        #expect(json.status == 0 && json.stdout == "b: {\"jobs\":[3]}\n", "\(json.stdout)\(json.stderr)")

        let decline = try await engines.run(["confirm", "2", "--decline", "--host", "a"])
        #expect(decline.status == 1 && decline.stderr.hasPrefix("installtop: a: "), "a job that awaits no yes: \(decline.stderr)")
        let unknown = try await engines.run(["confirm", "9", "--host", "b"])
        #expect(unknown.status == 1 && unknown.stderr.hasPrefix("installtop: b: ") && unknown.stderr.contains("9"), "\(unknown.stderr)")
    }

    @Test("--socket beside --host, and ssh options without a host, are usage errors")
    func usage() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let socket = try await installtop(["status", "--host", "a", "--socket", folder.file("s")], in: folder)
        #expect(socket.status == 2 && socket.stderr.contains("--remote-command 'installtop bridge --socket PATH'"), "\(socket.stderr)")
        let option = try await installtop(["status", "--ssh-option", "Port=2"], in: folder)
        #expect(option.status == 2 && option.stderr.contains("--ssh-option is for reaching hosts"), "\(option.stderr)")
    }
}
