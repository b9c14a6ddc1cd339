import FleetTestSupport
import Foundation
import Testing

/// A fleet run submitted to `serve` (it outlives the operator's session): the engine runs
/// ansible-playbook in the controller namespace, the hosts become jobs, and aborting one host's
/// job stops only that host at its next task boundary.
@Suite("daemon: fleet runs", .serialized)
struct DaemonFleetTests {
    @Test("submit of an ansible job; abort of one host stops only that host, at a task boundary")
    func oneHostStops() async throws {
        let hosts = try FleetTestHosts(count: 2)
        defer { hosts.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let release = folder.file("release")
        defer { _ = try? folder.write("release", "") }
        try folder.write("site.yml", """
            - hosts: all
              gather_facts: false
              tasks:
                - name: Long
                  shell: touch /run/long-started; while [ ! -e \(release) ]; do sleep 0.1; done
                - name: Next
                  command: /bin/true
            """)
        try folder.write("fleet.yaml", """
            jobs:
              - name: Patch the fleet
                ansible: {playbook: site.yml, inventory: \(hosts.inventoryPath)}
            """)
        let environment = try hosts.environmentWithAnsible()
        let socket = folder.file("engine.sock")
        let command = hosts.controllerCommand([try InstalltopBinary.path(), "serve", "--socket", socket, "--no-history"])
        let serve = try InstalltopProcess(Array(command.dropFirst()), in: folder, executable: command[0], environment: environment)
        try await waitUntil("serve to listen; stderr:\n\(serve.stderr)") { serve.stderr.contains("serving on \(socket)") }

        let submitted = try await installtop(["submit", folder.file("fleet.yaml"), "--socket", socket], in: folder)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(submitted.stdout.contains("fleet run queued: Patch the fleet"), "\(submitted.stdout)")
        try await waitUntil("the long task to run on both hosts") {
            hosts.everyHostHas("/run/long-started")
        }
        let status = try await installtop(["status", "--json", "--socket", socket], in: folder)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let jobs = try #require(object["jobs"] as? [[String: Any]])
        let h1 = try #require(jobs.first { $0["name"] as? String == "h1" }?["job"] as? Int, "\(jobs)")
        let h2 = try #require(jobs.first { $0["name"] as? String == "h2" }?["job"] as? Int)

        let abort = try await installtop(["abort", String(h1), "--socket", socket], in: folder)
        #expect(abort.status == 0, "\(abort.stderr)")
        try folder.write("release", "")
        try await waitUntil("both hosts' jobs to complete") {
            let jobs = (try? await installtop(["status", "--json", "--socket", socket], in: folder))
                .flatMap { try? JSONSerialization.jsonObject(with: Data($0.stdout.utf8)) as? [String: Any] }?["jobs"] as? [[String: Any]] ?? []
            return jobs.filter { [h1, h2].contains($0["job"] as? Int) }.allSatisfy { !($0["result"] is NSNull) && $0["result"] != nil }
        }
        let final = try await installtop(["status", "--json", "--socket", socket], in: folder)
        let finalJobs = (try JSONSerialization.jsonObject(with: Data(final.stdout.utf8)) as? [String: Any])?["jobs"] as? [[String: Any]] ?? []
        let first = try #require(finalJobs.first { $0["job"] as? Int == h1 })
        let second = try #require(finalJobs.first { $0["job"] as? Int == h2 })
        #expect(first["result"] as? String == "aborted", "h1 was stopped: \(first)")
        let firstUpdates = first["updates"] as? [[String: Any]] ?? []
        #expect(firstUpdates.map { $0["state"] as? String } == ["succeeded", "aborted"], "its running task finished, the next never started: \(firstUpdates)")
        #expect(second["result"] as? String == "succeeded", "h2 ran on: \(second)")
        kill(serve.pid, SIGTERM)
        _ = try await serve.finish(timeout: .seconds(60))
    }
}
