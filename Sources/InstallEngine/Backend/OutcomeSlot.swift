import Synchronization

/// Holds a running update's outcome once it is known and wakes everyone waiting for it:
/// the shared piece of every `RunningUpdate.outcome` and `whenEnded`.
public final class OutcomeSlot: Sendable {
    private struct State {
        var outcome: UpdateRunOutcome?
        var waiters: [CheckedContinuation<UpdateRunOutcome, Never>] = []
        var handlers: [@Sendable (UpdateRunOutcome) -> Void] = []
    }

    private let state: Mutex<State>

    /// - Parameter outcome: an outcome already known (a command that never started), or `nil`.
    public init(_ outcome: UpdateRunOutcome? = nil) {
        state = Mutex(State(outcome: outcome))
    }

    /// Settles the outcome and wakes every waiter, on the calling thread. Only the first call
    /// counts.
    public func settle(_ outcome: UpdateRunOutcome) {
        let (waiters, handlers) = state.withLock { state -> ([CheckedContinuation<UpdateRunOutcome, Never>], [@Sendable (UpdateRunOutcome) -> Void]) in
            guard state.outcome == nil else { return ([], []) }
            state.outcome = outcome
            defer { (state.waiters, state.handlers) = ([], []) }
            return (state.waiters, state.handlers)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
        for handler in handlers { handler(outcome) }
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

    /// Calls `handler` once with the outcome: on the thread that settles it, or at once, on the
    /// calling thread, when it is settled already. `handler` must be quick (the engine's only
    /// enqueues an input on the job's executor).
    public func whenSettled(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        let known = state.withLock { state -> UpdateRunOutcome? in
            if let outcome = state.outcome { return outcome }
            state.handlers.append(handler)
            return nil
        }
        if let known { handler(known) }
    }
}
