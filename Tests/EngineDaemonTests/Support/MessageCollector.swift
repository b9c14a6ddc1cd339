import EngineDaemon
import EngineWire
import Foundation
import InstallEngine
import Synchronization

/// Reads every message of one `EngineClient` on a thread of its own, so tests can poll what
/// arrived with a deadline instead of blocking in `nextMessage()`. `close()` ends the thread.
final class MessageCollector: Sendable {
    let client: EngineClient
    private let state = Mutex<(messages: [ServerMessage], ended: Bool, error: DaemonError?)>(([], false, nil))

    init(_ client: EngineClient) {
        self.client = client
        let thread = Thread { [self] in
            while true {
                do throws(DaemonError) {
                    guard let message = try client.nextMessage() else { break }
                    state.withLock { $0.messages.append(message) }
                } catch {
                    state.withLock { $0.error = error }
                    break
                }
            }
            state.withLock { $0.ended = true }
        }
        thread.start()
    }

    var messages: [ServerMessage] { state.withLock { $0.messages } }
    /// The engine closed the connection (or the client did).
    var ended: Bool { state.withLock { $0.ended } }
    var error: DaemonError? { state.withLock { $0.error } }

    /// The events, in order.
    var events: [EngineEvent] {
        messages.compactMap { message in
            if case .event(let event) = message { return event }
            return nil
        }
    }

    /// The events after `snapshot.end` (empty until it arrived).
    var liveEvents: [EngineEvent] {
        let messages = self.messages
        guard let end = messages.firstIndex(of: .snapshotEnd) else { return [] }
        return messages[(end + 1)...].compactMap { message in
            if case .event(let event) = message { return event }
            return nil
        }
    }

    /// The events between `snapshot.begin` and `snapshot.end`.
    var replayEvents: [EngineEvent] {
        let messages = self.messages
        guard let begin = messages.firstIndex(where: { if case .snapshotBegin = $0 { true } else { false } }),
            let end = messages.firstIndex(of: .snapshotEnd)
        else { return [] }
        return messages[begin..<end].compactMap { message in
            if case .event(let event) = message { return event }
            return nil
        }
    }

    /// The reply to request `id`, once it arrived.
    func reply(to id: Int) -> WireReply? {
        for case .reply(let reply) in messages where reply.requestID == id { return reply }
        return nil
    }

    /// The queue as this client sees it: every event it received applied to an empty model.
    var model: QueueModel {
        var model = QueueModel()
        for event in events { model.apply(event) }
        return model
    }

    func close() { client.close() }
}
