import Dispatch
import Synchronization

/// A queue's events on their way to its subscribers: the one callback queue (a thread of its
/// own, since subscribers and the jobs' callbacks are the host program's code and may block),
/// the subscribers, and the model as they have seen it. A late subscriber first receives the
/// replay of the model, then live events, with nothing lost or repeated between the two.
///
/// Events reach subscribers in one global order, one at a time (rule 8): whoever publishes only
/// enqueues, under its own lock if it likes, so the order is the order of its changes.
final class EventHub: Sendable {
    private struct State {
        var nextSubscriberID: UInt64 = 0
        var subscribers: [(id: UInt64, handler: @Sendable (EngineEvent) -> Void)] = []
        /// Updated only on the callback queue, so it matches what subscribers have seen.
        var model: QueueModel
    }

    /// Where events, and the callbacks of the queue's jobs, are delivered.
    let callbackQueue = SerialWorkQueue(runningOn: .ownThread(name: "installtop-evts"))
    private let state: Mutex<State>

    /// - Parameter outputCapacity: lines of output the model keeps per update for late subscribers.
    init(outputCapacity: Int) {
        state = Mutex(State(model: QueueModel(outputCapacity: outputCapacity)))
    }

    /// Registers `handler` for the replay of the model as it stands, then every event.
    func subscribe(_ handler: @escaping @Sendable (EngineEvent) -> Void) -> EventSubscription {
        let id = state.withLock { state -> UInt64 in
            state.nextSubscriberID += 1
            return state.nextSubscriberID
        }
        callbackQueue.enqueue { [self] in
            let replay = state.withLock { $0.model.replayEvents() }
            for event in replay { handler(event) }
            state.withLock { $0.subscribers.append((id, handler)) }
        }
        return EventSubscription { [weak self] in
            self?.state.withLock { $0.subscribers.removeAll { $0.id == id } }
        }
    }

    /// The model as subscribers have seen it so far.
    var model: QueueModel {
        state.withLock { $0.model }
    }

    /// Queues `deliver` behind everything queued so far; see `deliver(_:)`.
    /// - Returns: its ticket on the callback queue.
    @discardableResult
    func enqueue(_ deliver: @escaping @Sendable () -> Void) -> UInt64 {
        callbackQueue.enqueue(deliver)
    }

    /// Runs on the callback queue: updates the model, then calls the subscribers.
    func deliver(_ event: EngineEvent) {
        let subscribers = state.withLock { state in
            state.model.apply(event)
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.handler(event) }
    }

    /// Blocks until everything queued before the call has been delivered. Returns at once when
    /// called from a subscriber (it would wait for itself).
    func waitUntilDelivered() {
        guard !callbackQueue.isDeliveringOnCurrentThread else { return }
        let delivered = DispatchSemaphore(value: 0)
        callbackQueue.whenDelivered(callbackQueue.enqueue {}) { delivered.signal() }
        delivered.wait()
    }
}
