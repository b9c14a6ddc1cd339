import EngineDaemon
import EngineWire
import InstallEngine
import Monitor
import Testing

@testable import MonitorRuntime

/// One host of the board, fed the engine's lines by hand: a snapshot replaces what the board
/// showed of the host, a refusal says the engine's reason with the host, ssh's last words say
/// why a link failed.
@Suite("Board host connection")
struct HostConnectionTests {
    private func queued(_ id: Int) -> ServerMessage {
        .event(EngineEvent(kind: .jobQueued(JobDescriptor(id: id, name: "Upgrade", operation: .install, updates: [], stopOnFailure: false))))
    }

    @Test("a snapshot is held to its end, then replaces the host's queue, its jobs renumbered for the board, and its end is said")
    func snapshotReplacesTheHostsQueue() {
        var connection = HostConnection(command: SSHCommand(host: "web2"))
        var numbers = BoardJobNumbers()
        _ = numbers.number(for: JobOrigin(host: "web1", job: 1))
        var durations: [String: Double] = [:]
        #expect(connection.received(.snapshotBegin(jobs: 1), numbers: &numbers, durations: &durations).isEmpty)
        #expect(connection.received(queued(1), numbers: &numbers, durations: &durations).isEmpty, "held until the snapshot ends")
        let items = connection.received(.snapshotEnd, numbers: &numbers, durations: &durations)
        #expect(items.count == 4, "\(items)")
        guard items.count == 4, case .monitor(.host(.queueReplaced("web2"))) = items[0],
              case .monitor(.host(.jobOrigin(2, JobOrigin(host: "web2", job: 1)))) = items[1], case .engine(let event) = items[2],
              case .monitor(.host(.queueShown("web2"))) = items[3] else {
            Issue.record("\(items)")
            return
        }
        #expect(event.job == 2)
    }

    @Test("a refusal (a watcher's abort) is the engine's reason with the host; a failed link is ssh's last stderr line")
    func refusalsAndFailures() {
        var connection = HostConnection(command: SSHCommand(host: "web2"))
        var numbers = BoardJobNumbers()
        var durations: [String: Double] = [:]
        let refusal = WireReply(command: "job", requestID: 3, error: WireError(.notAllowed, "abort refused: uid 65534 watches this engine"))
        let items = connection.received(.reply(refusal), numbers: &numbers, durations: &durations)
        guard case .commandResult(let text)? = items.first else {
            Issue.record("\(items)")
            return
        }
        #expect(text == "web2: abort refused: uid 65534 watches this engine")

        connection.appendStderr(ArraySlice(Array("Warning: Permanently added 'web2'\nssh: connect to host 10.0.0.2 port 22: Connection refused\n\n".utf8)))
        #expect(connection.failureReason(status: 255) == "ssh: connect to host 10.0.0.2 port 22: Connection refused")
        #expect(HostConnection(command: SSHCommand(host: "x")).failureReason(status: 255) == "ssh exited with status 255")
        #expect(HostConnection(command: SSHCommand(host: "x")).failureReason(status: 0) == "the engine closed the connection")
        let sent = connection.send(.subscribe, as: .command)
        #expect(!sent, "no link, nothing sent (and nothing waits)")
    }
}
