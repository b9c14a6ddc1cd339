import FleetTestSupport
import Foundation
import Testing

/// `FleetCommand.run(silentFor:)`, the hang guard the Ansible tests wait with: a command that
/// goes quiet is stopped and reported, one that keeps writing runs to its end, however long.
@Suite("FleetCommand's silence guard")
struct FleetCommandSilenceTests {
    @Test("a command that writes once and then nothing is stopped as hung, and the error says it went silent")
    func silentCommandIsStopped() async throws {
        do {
            _ = try await FleetCommand.run(["/bin/sh", "-c", "echo started; exec sleep 600"],
                                           timeout: .seconds(300), silentFor: .seconds(2))
            Issue.record("a command silent for 600 s finished")
        } catch {
            let message = "\(error)"
            #expect(message.contains("wrote nothing for"), "\(message)")
            #expect(message.contains("started"), "its output so far is in the error: \(message)")
        }
    }

    @Test("a command that writes a line a second for 6 s outlives a 3 s silence guard, and its status and output are kept")
    func writingCommandRunsToItsEnd() async throws {
        // bash's own `read -t` on a FIFO it holds open waits without starting a process: a
        // loaded machine delays the next line by no more than it delays the loop itself.
        let folder = FileManager.default.temporaryDirectory.appending(path: "itop-silence-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = "mkfifo \(folder)/wait; exec 3<>\(folder)/wait; for i in 1 2 3 4 5 6; do echo line $i; read -t 1 -u 3; done; exit 3"
        let result = try await FleetCommand.run(["/bin/bash", "-c", script], timeout: .seconds(300), silentFor: .seconds(3))
        #expect(result.status == 3)
        #expect(result.stdout == (1...6).map { "line \($0)\n" }.joined())
    }
}
