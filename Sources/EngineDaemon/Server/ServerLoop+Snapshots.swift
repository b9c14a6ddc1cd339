import EngineWire
import InstallEngine
import Synchronization

extension ServerLoop {
    /// Starts sending `snapshot.begin`, the replay of the queue as the engine's events built
    /// it, and `snapshot.end` (`advanceSnapshots` sends the rest); live events that arrive
    /// meanwhile wait and follow it, none lost or repeated (coalesced and summarised, as for
    /// a client that falls behind). The snapshot itself is sent whole.
    mutating func startSnapshot(for id: Int) {
        let model = server.shared.withLock { shared -> QueueModel? in
            guard shared.outboxes[id] != nil else { return nil }
            shared.outboxes[id]!.startSnapshot()
            var begin = Array(ServerMessage.snapshotBeginLine(jobs: shared.model.jobs.count).utf8)
            begin.append(UInt8(ascii: "\n"))
            shared.outboxes[id]!.enqueueSnapshot(begin)
            return shared.model
        }
        guard let model else { return }
        connections[id]?.snapshot = SnapshotCursor(events: model.replayEvents())
    }

    /// Encodes the next chunk of every snapshot whose client has taken the previous one; the
    /// last chunk ends with `snapshot.end` and the pending snapshot's state (when the engine
    /// keeps one), followed by the live events held meanwhile.
    mutating func advanceSnapshots() {
        for id in Array(connections.keys) {
            guard var connection = connections[id], var cursor = connection.snapshot,
                connection.sentCount == connection.sending.count
            else { continue }
            let end = min(cursor.events.count, cursor.next + SnapshotCursor.chunkSize)
            var bytes: [UInt8] = []
            bytes.reserveCapacity((end - cursor.next) * 160)
            for event in cursor.events[cursor.next..<end] { bytes.append(contentsOf: EventCoding.line(event)) }
            cursor.next = end
            let finished = end == cursor.events.count
            if finished {
                bytes.append(contentsOf: ServerMessage.snapshotEndLine.utf8)
                bytes.append(UInt8(ascii: "\n"))
            }
            server.shared.withLock { shared in
                if finished, let pending = shared.pendingLine { bytes.append(contentsOf: pending) }
                if finished, let armed = shared.armedLine { bytes.append(contentsOf: armed) }
                shared.outboxes[id]?.enqueueSnapshot(bytes)
                if finished { shared.outboxes[id]?.finishSnapshot() }
            }
            connection.snapshot = finished ? nil : cursor
            connections[id] = connection
        }
    }
}
