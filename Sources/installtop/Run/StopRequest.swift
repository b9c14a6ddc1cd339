import Synchronization

/// A stop a signal relay asks of a transaction, the relay made before the transaction starts:
/// a signal between the start and the relay found the default disposition, and ended
/// installtop with apt or the dnf helper running unwatched. A stop asked before `started` is
/// carried out by it.
final class StopRequest<Target: Sendable>: Sendable {
    private let state = Mutex<(target: Target?, asked: Bool)>((nil, false))
    private let stop: @Sendable (Target) -> Void

    /// - Parameter stop: how the target is stopped; called once per `ask` (and by `started`
    ///   when one came before), so it must bear being called again.
    init(stop: @escaping @Sendable (Target) -> Void) {
        self.stop = stop
    }

    /// Stops the target, or has it stopped as it starts. Returns it when it had started.
    @discardableResult
    func ask() -> Target? {
        let target = state.withLock { state -> Target? in
            state.asked = true
            return state.target
        }
        if let target { stop(target) }
        return target
    }

    /// The target started: stopped at once when a stop was asked meanwhile.
    func started(_ target: Target) {
        let asked = state.withLock { state -> Bool in
            state.target = target
            return state.asked
        }
        if asked { stop(target) }
    }
}
