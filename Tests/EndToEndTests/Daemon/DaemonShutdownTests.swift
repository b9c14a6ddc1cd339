import Foundation
import Glibc
import Testing
import TestProcessSupport

/// Stopping serve: SIGTERM aborts the running jobs, records them and removes the socket.
@Suite("daemon shutdown")
struct DaemonShutdownTests {
    @Test("SIGTERM during a running job: exit 0 soon, socket gone, history says aborted, no child left")
    func sigtermAbortsAndRecords() async throws {
        let daemon = try DaemonFixture(history: true)
        defer { daemon.remove() }
        let serve = try await daemon.start()
        // The child traps nothing: SIGTERM ends it. Without the abort it would run 15 minutes.
        let sleeper = try daemon.folder.script("sleeper.sh", """
            echo $$ > \(daemon.folder.file("child.pid.tmp")) && mv \(daemon.folder.file("child.pid.tmp")) \(daemon.folder.file("child.pid"))
            exec sleep 900
            """)
        let manifest = try daemon.manifest(job: "Sleeper job", update: "sleeper", script: sleeper)
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        let child = try await pidWritten(to: daemon.folder.file("child.pid"))
        try await waitUntil("the child to exec sleep") {
            (try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) == "sleep\n"
        }

        serve.send(SIGTERM)
        let stopped = try await serve.finish(timeout: .seconds(60))
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("SIGTERM: taking no new jobs"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("job 1 completed: aborted"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("stopped; every job has completed and the socket is removed"), "\(stopped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: daemon.socket), "the socket file is removed")
        #expect(!FileManager.default.fileExists(atPath: daemon.socket + ".lock"), "the lock file is removed too")
        #expect(await eventually { processIsGone(child) }, "the job's child \(child) is gone")
        #expect(serve.leftovers.isEmpty, "left behind: \(serve.leftovers)")

        let history = try await installtop(["history", "--history-db", try #require(daemon.historyDatabase), "--json"],
                                           in: daemon.folder)
        #expect(history.status == 0, "\(history.stderr)")
        let entry = try #require(try history.jsonEvents().first { $0.string("updateId") == "sleeper" }, "\(history.stdout)")
        #expect(entry.string("result") == "aborted", "\(entry)")
        #expect(entry.string("job") == "Sleeper job", "\(entry)")
    }

    @Test("serve refuses submits while it stops (shuttingDown), and a second SIGTERM kills a child that ignores the first")
    func secondSigtermKills() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let serve = try await daemon.start(extraArguments: ["--abort-grace", "600"])
        let stubborn = try daemon.folder.script("stubborn.sh", """
            # Ignores SIGTERM, and runs half an hour unless killed: a loaded CI machine once took
            # longer than its first minute to get to the check that it still runs.
            trap '' TERM
            echo $$ > \(daemon.folder.file("child.pid.tmp")) && mv \(daemon.folder.file("child.pid.tmp")) \(daemon.folder.file("child.pid"))
            i=0
            while [ $i -lt 18000 ]; do sleep 0.1; i=$((i + 1)); done
            """)
        let manifest = try daemon.manifest(job: "Stubborn job", update: "stubborn", script: stubborn)
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        let child = try await pidWritten(to: daemon.folder.file("child.pid"))

        serve.send(SIGTERM)
        try await daemon.waitForJob(1, state: "aborting")
        let refused = try await daemon.run(["submit", manifest])
        #expect(refused.status == 1 && refused.stderr.contains("shutting down"), "\(refused.stderr)")
        #expect(!processIsGone(child), "the child ignores SIGTERM and the grace is 600 s")

        serve.send(SIGTERM)
        let stopped = try await serve.finish(timeout: .seconds(60))
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("SIGTERM again: killing the running updates"), "\(stopped.stderr)")
        #expect(processIsGone(child))
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }
}
