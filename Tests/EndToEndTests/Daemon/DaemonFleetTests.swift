import APTTestSupport
import FleetTestSupport
import Foundation
import Testing

/// A fleet run submitted to `serve` (it outlives the operator's session): the engine runs
/// ansible-playbook in the controller namespace, the hosts become jobs, and aborting one host's
/// job stops only that host at its next task boundary, its handlers included.
@Suite("daemon: fleet runs", .serialized)
struct DaemonFleetTests {
    @Test("submit of an ansible job; abort of one host stops only that host, at a task boundary")
    func oneHostStops() async throws {
        let run = try await FleetRunThroughServe(tasks: """
                - name: Long
                  shell: touch /run/long-started; while [ ! -e RELEASE ]; do sleep 0.1; done
                - name: Next
                  command: /bin/true
            """)
        defer { run.tearDown() }
        let (first, second) = try await run.abortFirstHost()
        #expect(first["result"] as? String == "aborted", "h1 was stopped: \(first)")
        let firstUpdates = first["updates"] as? [[String: Any]] ?? []
        #expect(firstUpdates.map { $0["state"] as? String } == ["succeeded", "aborted"], "its running task finished, the next never started: \(firstUpdates)")
        #expect(second["result"] as? String == "succeeded", "h2 ran on: \(second)")
        try await run.stopServe()
    }

    @Test("abort of one host keeps the handlers its finished task notified from running on it")
    func oneHostStopsBeforeItsHandlers() async throws {
        let run = try await FleetRunThroughServe(tasks: """
                - name: Long
                  shell: touch /run/long-started; while [ ! -e RELEASE ]; do sleep 0.1; done
                  notify: Mark
              handlers:
                - name: Mark
                  command: touch /run/handler-ran
            """)
        defer { run.tearDown() }
        let (first, second) = try await run.abortFirstHost()
        let firstUpdates = first["updates"] as? [[String: Any]] ?? []
        #expect(firstUpdates.map { $0["state"] as? String } == ["succeeded", "aborted"], "the handlers never started on h1: \(firstUpdates)")
        #expect(try run.hosts.run(onHost: 1, "test -e /run/handler-ran").status != 0, "no handler ran on the stopped host")
        #expect(second["result"] as? String == "succeeded", "\(second)")
        #expect(try run.hosts.run(onHost: 2, "test -e /run/handler-ran").status == 0, "h2's handler ran")
        try await run.stopServe()
    }
}

/// Two test hosts, `serve` in the controller namespace, and a play of `tasks` (a `tasks:`
/// list, `RELEASE` standing for a file the run waits for) submitted to it.
private final class FleetRunThroughServe {
    let hosts: FleetTestHosts
    let folder: TestFolder
    let serve: InstalltopProcess
    let socket: String

    init(tasks: String) async throws {
        hosts = try FleetTestHosts(count: 2)
        folder = try TestFolder()
        do {
            try folder.write("site.yml", """
                - hosts: all
                  gather_facts: false
                  tasks:
                \(tasks.replacingOccurrences(of: "RELEASE", with: folder.file("release")))
                """)
            try folder.write("fleet.yaml", """
                jobs:
                  - name: Patch the fleet
                    ansible: {playbook: site.yml, inventory: \(hosts.inventoryPath)}
                """)
            socket = folder.file("engine.sock")
            // The dpkg of an empty private root: an apt run on the host is no job of this engine.
            let quietAPT = try APTTestRoot(folder: folder.file("quiet-apt"))
            let command = hosts.controllerCommand([try InstalltopBinary.path(), "serve", "--socket", socket, "--no-history",
                                                   "--apt-config", quietAPT.configuration])
            serve = try InstalltopProcess(Array(command.dropFirst()), in: folder, executable: command[0],
                                          environment: try hosts.environmentWithAnsible())
        } catch {
            folder.remove()
            hosts.tearDown()
            throw error
        }
        let (serve, socket) = (serve, socket)
        try await waitUntil("serve to listen; stderr:\n\(serve.stderr)") { serve.stderr.contains("serving on \(socket)") }
        let submitted = try await installtop(["submit", folder.file("fleet.yaml"), "--socket", socket], in: folder)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(submitted.stdout.contains("fleet run queued: Patch the fleet"), "\(submitted.stdout)")
    }

    /// The engine's jobs, as `installtop status --json` gives them.
    func jobs() async throws -> [[String: Any]] {
        let status = try await installtop(["status", "--json", "--socket", socket], in: folder)
        return (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["jobs"] as? [[String: Any]] ?? []
    }

    /// Once the long task runs on both hosts: aborts h1's job, lets the task end, and returns
    /// both hosts' jobs once they completed.
    func abortFirstHost() async throws -> (first: [String: Any], second: [String: Any]) {
        try await waitUntil("the long task to run on both hosts") { self.hosts.everyHostHas("/run/long-started") }
        let started = try await jobs()
        let h1 = try #require(started.first { $0["name"] as? String == "h1" }?["job"] as? Int, "\(started)")
        let h2 = try #require(started.first { $0["name"] as? String == "h2" }?["job"] as? Int)
        let abort = try await installtop(["abort", String(h1), "--socket", socket], in: folder)
        #expect(abort.status == 0, "\(abort.stderr)")
        try folder.write("release", "")
        try await waitUntil("both hosts' jobs to complete") {
            let jobs = (try? await self.jobs()) ?? []
            return jobs.filter { [h1, h2].contains($0["job"] as? Int) }.allSatisfy { !($0["result"] is NSNull) && $0["result"] != nil }
        }
        let final = try await jobs()
        return (try #require(final.first { $0["job"] as? Int == h1 }), try #require(final.first { $0["job"] as? Int == h2 }))
    }

    /// Stops serve as an operator would (SIGTERM) and waits for it.
    func stopServe() async throws {
        kill(serve.pid, SIGTERM)
        _ = try await serve.finish(timeout: .seconds(60))
    }

    /// Releases the run's waiting task, removes the folder and tears the hosts down, also when
    /// a test failed half-way (serve, if still running, is killed when this value goes).
    func tearDown() {
        _ = try? folder.write("release", "")
        folder.remove()
        hosts.tearDown()
    }
}
