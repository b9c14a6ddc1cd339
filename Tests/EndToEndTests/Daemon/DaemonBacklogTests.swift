import Foundation
import Glibc
import Testing

/// A subscriber that stops reading is closed once it has read nothing for `--idle-reader-timeout`
/// while events waited for it (3 s here; 120 by default); the engine and the clients that do
/// read are not held up (the reading one fails only if nothing reaches it for 60 s). Until
/// this change it was dropped once 8 MiB waited, which also dropped clients that read slowly.
@Suite("daemon backlog")
struct DaemonBacklogTests {
    @Test("a subscriber that never reads is closed during a flood; a reading one sees the job complete")
    func stalledSubscriberIsClosed() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let serve = try await daemon.start(extraArguments: ["--idle-reader-timeout", "3"])
        // Bursts of 500 lines of 1000 bytes, at most about 10 MB/s so that the reading
        // subscriber keeps up even on a loaded machine, until serve has closed the stalled
        // subscriber (3 s after events started waiting for it), at most 100 (50 MB). A fixed 20 MB flood
        // cost a debug engine about 2.5 s of CPU: on a loaded CI machine it outlasted the
        // reader's wait while the reader kept up with every byte the engine sent.
        let stopFlood = daemon.folder.file("stop-flood")
        let flood = try daemon.folder.script("flood.sh", """
            line=$(printf '%01000d' 0)
            i=0
            while [ $i -lt 100 ] && [ ! -e \(stopFlood) ]; do
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

        // Waited for as long as the reading subscriber sees the engine work.
        do {
            try await reader.waitWhileReading("serve to close the stalled subscriber") {
                serve.stderr.contains("closed: it read nothing for 3 s")
            }
        } catch {
            throw EndToEndError.conditionNotMet("\(error)\nserve's stderr:\n\(serve.stderr)")
        }
        try daemon.folder.write("stop-flood", "")
        #expect(serve.stderr.contains("client 1 (pid \(getpid())) closed"), "the stalled client is client 1:\n\(serve.stderr)")
        let (closed, bytes) = await stalled.drainUntilClosed()
        #expect(closed, "the stalled client's connection is closed (read \(bytes) bytes)")
        #expect(bytes < 4 << 20, "once closed it gets no more than its socket held: \(bytes) bytes")

        try await daemon.waitForJob(1, state: "running")
        try daemon.release()
        do {
            try await reader.waitWhileReading("the reading subscriber to see job.completed") { try reader.result() != nil }
        } catch {
            throw EndToEndError.conditionNotMet("\(error)\nserve's stderr:\n\(serve.stderr)")
        }
        let completed = JSONEvent(line: try #require(try reader.result()))
        #expect(serve.stderr.components(separatedBy: "closed: it read nothing").count == 2, "only the stalled client is closed:\n\(serve.stderr)")
        #expect(completed.job == 1 && completed.string("result") == "succeeded", "\(completed)")
        let after = try #require(try await daemon.statusJob(1))
        #expect(after["result"] as? String == "succeeded", "\(after)")
    }
}
