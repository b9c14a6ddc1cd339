import EngineDaemon
import EngineWire
import Foundation
import InstallEngine
import Monitor
import Testing

@testable import MonitorRuntime

/// The board's questions to one host's engine and their answers, fed by hand: its pending
/// snapshot (or nothing from an engine too old for `pending`), its history and runs tagged with
/// the host, an undo's refusal with the host's name.
@Suite("Board host connection: pending, history, undo")
struct HostConnectionPendingTests {
    private func reply(_ connection: inout HostConnection, _ request: HostConnection.Request, _ reply: WireReply) -> [MailboxItem] {
        var numbers = BoardJobNumbers()
        var durations: [String: Double] = [:]
        connection.requests[reply.requestID ?? 0] = request
        return connection.received(.reply(reply), numbers: &numbers, durations: &durations)
    }

    @Test("a pending reply is the host's snapshot; a refusal (an engine too old, one that keeps none) and a null snapshot are nothing")
    func pendingReplies() throws {
        var connection = HostConnection(command: SSHCommand(host: "web2"))
        let snapshot = PendingSnapshot(computedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                       packages: [PendingPackage(name: "openssl", oldVersion: "3.0.14", newVersion: "3.0.15",
                                                                 origin: "Debian-Security:12/stable-security")],
                                       listsUpdatedAt: Date(timeIntervalSince1970: 1_799_990_000))
        let json = try JSONParser.parse(PendingSnapshotCoding.encode(snapshot))
        let items = reply(&connection, .pending, WireReply(command: "pending", requestID: 4, fields: ["snapshot": json, "computing": .bool(false)]))
        guard case .monitor(.host(.pending("web2", let received)))? = items.first, items.count == 1 else {
            Issue.record("\(items)")
            return
        }
        #expect(received.packages.map(\.name) == ["openssl"] && received.securityCount == 1)

        let old = reply(&connection, .pending, WireReply(command: "pending", requestID: 5,
                                                         error: WireError(.unknownCommand, "unknown command `pending`")))
        #expect(old.isEmpty, "\(old)")
        #expect(connection.pendingAskAt == nil)
        let none = reply(&connection, .pending, WireReply(command: "pending", requestID: 6, fields: ["snapshot": .null, "computing": .bool(true)]))
        #expect(none.isEmpty, "\(none)")
        // The engine's keeper had not yet seen the job end: asked again in a second.
        #expect(connection.pendingAskAt != nil, "a newer snapshot is coming: asked again")
        let settled = reply(&connection, .pending, WireReply(command: "pending", requestID: 7, fields: ["snapshot": json, "computing": .bool(false)]))
        #expect(settled.count == 1 && connection.pendingAskAt == nil)
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
