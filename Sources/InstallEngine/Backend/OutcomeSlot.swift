import Synchronization

/// Holds a running update's outcome once it is known and wakes everyone waiting for it:
/// the shared piece of every `RunningUpdate.outcome`.
public final class OutcomeSlot: Sendable {
    private struct State {
        var outcome: UpdateRunOutcome?
        var waiters: [CheckedContinuation<UpdateRunOutcome, Never>] = []
    }

    private let state: Mutex<State>

    /// - Parameter outcome: an outcome already known (a command that never started), or `nil`.
    public init(_ outcome: UpdateRunOutcome? = nil) {
        state = Mutex(State(outcome: outcome))
    }

    /// Settles the outcome and wakes every waiter. Only the first call counts.
    public func settle(_ outcome: UpdateRunOutcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<UpdateRunOutcome, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// The outcome if it is settled.
    public var settledOutcome: UpdateRunOutcome? { state.withLock { $0.outcome } }

    /// Waits until the outcome is settled.
    public var outcome: UpdateRunOutcome {
        get async {
            await withCheckedContinuation { continuation in
                let known = state.withLock { state -> UpdateRunOutcome? in
                    if let outcome = state.outcome { return outcome }
                    state.waiters.append(continuation)
                    return nil
                }
                if let known { continuation.resume(returning: known) }
            }
        }
    }
}
