import Foundation
import Glibc
import Testing
import TestProcessSupport

/// The relay counts the lines it could not deliver (no engine listening, its socket full) and
/// says so (`"dropped":N`) in its next message that gets through; `installtop status` shows
/// them with the observed job's result, in its text and its JSON.
@Suite("observed jobs: the relay's dropped lines", .serialized)
struct RelayDroppedLinesTests {
    @Test("observe messages that say 3 and 1 lines were dropped: status says 'job N: 4 lines dropped' and droppedLines 4")
    func droppedLinesInStatus() async throws {
        let fixture = try DaemonFixture()
        defer { fixture.remove() }
        try await fixture.start()
        // The transaction's process: a sleep of the test's (apt would be one), killed at the end.
        let initiator = Process()
        initiator.executableURL = URL(fileURLWithPath: "/bin/sleep")
        initiator.arguments = ["600"]
        try initiator.run()
        let pid = initiator.processIdentifier
        defer {
            // SIGKILL: Foundation's Process hands the spawning thread's blocked signals, SIGTERM
            // among them, on to the child, where a SIGTERM would wait unseen.
            kill(pid, SIGKILL)
            initiator.waitUntilExit()
        }
        // dpkg's final state is read from a database that does not exist, never the machine's.
        let admindir = fixture.folder.file("no-dpkg")
        let who = "\"initiator\":{\"pid\":\(pid),\"start\":0,\"program\":\"dpkg\",\"commandLine\":[\"dpkg\",\"--admindir=\(admindir)\",\"-i\",\"lab-a.deb\"],"
            + "\"uid\":0,\"user\":\"root\",\"terminal\":\"\"}"
        // What the relay writes (RelayMessage), as it would after 3, then 1 undelivered lines.
        let relay = try RawClient(socket: fixture.socket)
        defer { relay.close() }
        try relay.send("{\"command\":\"observe\",\"event\":\"status\",\"sent\":0,\"relay\":1,\(who),\"dropped\":3,"
            + "\"lines\":[\"processing: install: lab-a\",\"status: lab-a: half-installed\"]}")
        try relay.send("{\"command\":\"observe\",\"event\":\"end\",\"sent\":0,\"relay\":1,\(who),\"dropped\":1,\"lines\":[]}")

        var job: [String: Any]?
        let completed = try await eventually(timeout: .seconds(60)) {
            job = try await fixture.statusJobs().first { $0["observed"] as? Bool == true }
            return job?["droppedLines"] != nil
        }
        #expect(completed, "no observed job with droppedLines: \(String(describing: job))")
        #expect((job?["droppedLines"] as? NSNumber)?.intValue == 4, "\(String(describing: job))")
        let id = (job?["job"] as? NSNumber)?.intValue ?? 0
        let table = try await fixture.run(["status"])
        #expect(table.stdout.contains("job \(id): 4 lines dropped"), "\(table.stdout)")
    }
}
