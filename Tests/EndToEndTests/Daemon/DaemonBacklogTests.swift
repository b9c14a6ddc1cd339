import Foundation
import Glibc
import Testing

/// A subscriber that stops reading is dropped once 8 MiB of events wait for it; the engine and
/// the clients that do read are not held up.
@Suite("daemon backlog")
struct DaemonBacklogTests {
    @Test("a subscriber that never reads is dropped during a 20 MB flood; a reading one sees the job complete")
    func stalledSubscriberIsDropped() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let serve = try await daemon.start()
        // 40 bursts of 500 lines of 1000 bytes: about 21 MB of log events, at most about 10 MB/s,
        // so that the reading subscriber keeps up even on a loaded machine.
        let flood = try daemon.folder.script("flood.sh", """
            line=$(printf '%01000d' 0)
            i=0
            while [ $i -lt 40 ]; do
                yes "$line" | head -n 500
                sleep 0.05
                i=$((i + 1))
            done
            """)
        let gated = try daemon.gatedScript(lines: 1)
        try daemon.folder.write("flood.yaml", """
            jobs:
              - name: Flood job
                updates:
                  - {id: flood, title: Floods, install: [\(flood)]}
                  - {id: gated, title: Waits, install: [\(gated)]}
            """)

        let stalled = try RawClient(socket: daemon.socket)
        try stalled.send(#"{"command":"subscribe"}"#)
        let reader = ThreadedSubscriber(socket: daemon.socket, needle: #""event":"job.completed""#)
        try await waitUntil("the reading subscriber's snapshot") { reader.isSubscribed }

        #expect(try await daemon.run(["submit", daemon.folder.file("flood.yaml")]).status == 0)
        let during = try await daemon.run(["status"])
        #expect(during.status == 0 && during.stdout.contains("Flood job"), "\(during.stdout)\(during.stderr)")

        try await waitUntil("serve to drop the stalled subscriber; stderr:\n\(serve.stderr)") {
            serve.stderr.contains("dropped: more than 8 MiB of events behind")
        }
        #expect(serve.stderr.contains("client 1 (pid \(getpid())) dropped"), "the stalled client is client 1:\n\(serve.stderr)")
        let (closed, bytes) = await stalled.drainUntilClosed()
        #expect(closed, "the dropped client's connection is closed (read \(bytes) bytes)")
        #expect(bytes < 15_000_000, "it was cut off long before the end of the flood: \(bytes) bytes")

        try await daemon.waitForJob(1, state: "running")
        try daemon.release()
        try await waitUntil("the reading subscriber to see job.completed", timeout: .seconds(60)) { try reader.result() != nil }
        let completed = JSONEvent(line: try #require(try reader.result()))
        #expect(serve.stderr.components(separatedBy: "dropped:").count == 2, "only the stalled client is dropped:\n\(serve.stderr)")
        #expect(completed.job == 1 && completed.string("result") == "succeeded", "\(completed)")
        let after = try #require(try await daemon.statusJob(1))
        #expect(after["result"] as? String == "succeeded", "\(after)")
    }
}
