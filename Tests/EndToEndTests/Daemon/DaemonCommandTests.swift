import Foundation
import Testing

/// The client commands against a real `serve`: submit, status (text and JSON), abort, cleanup.
@Suite("daemon commands")
struct DaemonCommandTests {
    @Test("serve's log says who submitted a job before it says that the job started")
    func submissionIsLoggedBeforeTheStart() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let serve = try await daemon.start()
        let manifest = try daemon.manifest(job: "Gated job", update: "gated", script: daemon.gatedScript())
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        try await daemon.waitForJob(1, state: "running")
        try await waitUntil("serve to log the start") { serve.stderr.contains("job 1 started") }
        let log = serve.stderr
        let submitted = try #require(log.range(of: "submitted job 1: Gated job (1 update)"), "\(log)")
        let started = try #require(log.range(of: "job 1 started"))
        #expect(submitted.lowerBound < started.lowerBound, "\(log)")
    }

    @Test("the fixture's serve follows the dpkg lock and log of its empty private root, never the host's /var/log/dpkg.log")
    func followsAPrivateDpkg() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let serve = try await daemon.start()
        let root = daemon.quietAPT.root
        try await waitUntil("serve to say which dpkg it follows; stderr:\n\(serve.stderr)") { serve.stderr.contains("following dpkg's lock") }
        #expect(serve.stderr.contains("following dpkg's lock in \(root)/var/lib/dpkg and its log \(root)/var/log/dpkg.log"), "\(serve.stderr)")
        #expect(!serve.stderr.contains("its log /var/log/dpkg.log"), "\(serve.stderr)")
    }

    @Test("submit queues a job that status shows; abort aborts it; cleanup empties the queue")
    func submitStatusAbortCleanup() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        let manifest = try daemon.manifest(job: "Gated job", update: "gated", script: daemon.gatedScript())

        let submitted = try await daemon.run(["submit", manifest])
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(submitted.stdout == "job 1 queued: Gated job (install, 1 update)\n")
        _ = try await pidWritten(to: daemon.folder.file("gated.sh.pid"))
        try await daemon.waitForJob(1, state: "running")

        let table = try await daemon.run(["status"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("JOB  STATE") && table.stdout.contains("Gated job"), "\(table.stdout)")
        #expect(table.stdoutLines.contains { $0.hasPrefix("1 ") && $0.contains("running") && $0.contains("gated update") },
                "\(table.stdout)")

        let job = try #require(try await daemon.statusJob(1))
        #expect(job["name"] as? String == "Gated job" && job["operation"] as? String == "install")
        #expect(job["abortRequested"] as? Bool == false && job["result"] is NSNull, "\(job)")
        let updates = try #require(job["updates"] as? [[String: Any]])
        #expect(updates.count == 1)
        #expect(updates.first?["id"] as? String == "gated" && updates.first?["state"] as? String == "inProgress", "\(updates)")
        #expect((updates.first?["percent"] as? NSNumber)?.doubleValue == 40 && updates.first?["message"] as? String == "gated")

        let unknown = try await daemon.run(["abort", "99"])
        #expect(unknown.status == 1 && unknown.stderr.contains("there is no job 99"), "\(unknown.stderr)")

        let abort = try await daemon.run(["abort", "1"])
        #expect(abort.status == 0 && abort.stdout == "job 1: abort requested\n", "\(abort.stdout)\(abort.stderr)")
        try await daemon.waitForJob(1, state: "aborted")
        let aborted = try #require(try await daemon.statusJob(1))
        #expect(aborted["result"] as? String == "aborted" && aborted["abortRequested"] as? Bool == true, "\(aborted)")
        #expect(try await daemon.run(["status"]).stdoutLines.contains { $0.hasPrefix("1 ") && $0.contains("aborted") })

        let again = try await daemon.run(["abort", "1"])
        #expect(again.status == 1 && again.stderr.contains("job 1 has already completed"), "\(again.stderr)")

        let cleanup = try await daemon.run(["cleanup", "1"])
        #expect(cleanup.status == 0 && cleanup.stdout == "job 1: cleaned up\n", "\(cleanup.stdout)\(cleanup.stderr)")
        let empty = try await daemon.run(["status"])
        #expect(empty.status == 0 && empty.stdout == "The queue is empty.\n", "\(empty.stdout)")
        #expect(try await daemon.statusJobs().isEmpty)
    }

    @Test("status: a job with a failed update reads failed in the table; JSON keeps WUA's succeededWithErrors")
    func aFailedUpdateReadsFailed() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        try await daemon.start()
        try daemon.folder.write("mixed.yaml", """
            jobs:
              - name: Mixed job
                updates:
                  - {id: fine, install: 'true'}
                  - {id: broken, install: 'exit 3'}
            """)
        #expect(try await daemon.run(["submit", daemon.folder.file("mixed.yaml")]).status == 0)
        try await daemon.waitForJob(1, state: "succeededWithErrors")
        let table = try await daemon.run(["status"])
        #expect(table.stdoutLines.contains { $0.hasPrefix("1 ") && $0.contains(" failed ") && $0.contains("Mixed job") }, "\(table.stdout)")
        #expect(!table.stdout.contains("with errors"), "\(table.stdout)")
        #expect(try await daemon.statusJob(1)?["result"] as? String == "succeededWithErrors")
    }

    @Test("submit of an invalid manifest exits 2 and queues nothing")
    func invalidManifestQueuesNothing() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let serve = try await daemon.start()
        let manifest = try daemon.folder.write("bad.yaml", """
            jobs:
              - name: Broken
                updates:
                  - {id: no-command, title: Has no install}
            """)

        let submitted = try await daemon.run(["submit", manifest])
        #expect(submitted.status == 2, "\(submitted.stdout)\(submitted.stderr)")
        #expect(submitted.stdout.isEmpty && submitted.stderr.contains("bad.yaml"), "\(submitted.stderr)")
        #expect(try await daemon.statusJobs().isEmpty)
        #expect(!serve.stderr.contains("submitted"), "\(serve.stderr)")
    }

    @Test("status, submit and abort without an engine exit 1 saying none is serving")
    func noEngine() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        for arguments in [["status"], ["abort", "1"], ["submit", try daemon.manifest(job: "J", update: "u", script: "/bin/true")]] {
            let result = try await daemon.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("no engine is serving on \(daemon.socket)"), "\(arguments): \(result.stderr)")
        }
    }
}
