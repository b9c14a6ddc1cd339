import EngineDaemon
import EngineWire
import Foundation
import InstallEngine
import Monitor
import Testing

@testable import MonitorRuntime

/// What one host's engine tells the board and answers, fed by hand: its pending snapshot as
/// the engine pushes it, its history and runs tagged with the host, an undo's refusal with the
/// host's name.
@Suite("Board host connection: pending, history, undo")
struct HostConnectionPendingTests {
    private func reply(_ connection: inout HostConnection, _ request: HostConnection.Request, _ reply: WireReply) -> [MailboxItem] {
        var numbers = BoardJobNumbers()
        var durations: [String: Double] = [:]
        connection.requests[reply.requestID ?? 0] = request
        return connection.received(.reply(reply), numbers: &numbers, durations: &durations)
    }

    @Test("a pushed pending state is the host's snapshot and whether a newer one is coming; a null snapshot is the coming alone; nothing is asked")
    func pendingPushes() throws {
        var connection = HostConnection(command: SSHCommand(host: "web2"))
        var numbers = BoardJobNumbers()
        var durations: [String: Double] = [:]
        let snapshot = PendingSnapshot(computedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                       packages: [PendingPackage(name: "openssl", oldVersion: "3.0.14", newVersion: "3.0.15",
                                                                 origin: "Debian-Security:12/stable-security")],
                                       listsUpdatedAt: Date(timeIntervalSince1970: 1_799_990_000))
        let json = try JSONParser.parse(PendingSnapshotCoding.encode(snapshot))
        // As the engine's line says it, read back as the link reads it.
        let line = PendingState(snapshot: json, computing: true).eventLine
        let message = try ServerMessage.decode(Array(line.utf8))
        let items = connection.received(message, numbers: &numbers, durations: &durations)
        guard case .monitor(.host(.pending("web2", let received?, computing: true)))? = items.first, items.count == 1 else {
            Issue.record("\(items)")
            return
        }
        #expect(received.packages.map(\.name) == ["openssl"] && received.securityCount == 1)
        let none = connection.received(.pending(PendingState(snapshot: nil, computing: true)), numbers: &numbers, durations: &durations)
        guard case .monitor(.host(.pending("web2", nil, computing: true)))? = none.first, none.count == 1 else {
            Issue.record("\(none)")
            return
        }
        #expect(connection.requests.isEmpty, "nothing asked of the engine")
    }

    @Test("history and runs come back tagged with their host, a refusal as unavailable; an undo's refusal is the host's reason")
    func historyAndUndo() {
        var connection = HostConnection(command: SSHCommand(host: "web2"))
        let history = reply(&connection, .history, WireReply(command: "history", requestID: 1, fields: ["entries": .array([])]))
        guard case .monitor(.host(.history("web2", .rows([]))))? = history.first else {
            Issue.record("\(history)")
            return
        }
        let runs = reply(&connection, .runs, WireReply(command: "runs", requestID: 2, error: WireError(.historyUnavailable, "history is off")))
        guard case .monitor(.host(.jobRuns("web2", .unavailable("history is off"))))? = runs.first else {
            Issue.record("\(runs)")
            return
        }
        let undo = reply(&connection, .command, WireReply(command: "undo", requestID: 3,
                                                          error: WireError(.invalidJob, "run 7 cannot be undone: jq changed since")))
        guard case .commandResult("web2: run 7 cannot be undone: jq changed since")? = undo.first else {
            Issue.record("\(undo)")
            return
        }
    }
}
