import Synchronization

/// Calls a tick every `interval` while there is work for it, and not at all otherwise: started
/// on demand, so an idle run has no timer waking it up.
final class OnDemandTicker: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        /// Work was announced since the last tick began.
        var announced = false
    }

    private let interval: Duration
    private let state = Mutex(State())

    init(interval: Duration) {
        self.interval = interval
    }

    deinit { state.withLock { $0.task?.cancel() } }

    /// Starts ticking unless already ticking. Call it whenever work appears; it may be called
    /// while holding the caller's own lock (the tick never runs under the ticker's lock).
    /// - Parameter tick: does the periodic work; returns whether more ticks are needed.
    func ensureRunning(_ tick: @escaping @Sendable () -> Bool) {
        state.withLock { state in
            state.announced = true
            guard state.task == nil else { return }
            state.task = Task.detached { [interval, weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self else { return }
                    self.state.withLock { $0.announced = false }
                    let more = tick()
                    let stop = self.state.withLock { state -> Bool in
                        // Work announced while the tick ran keeps the ticker alive.
                        guard !more, !state.announced else { return false }
                        state.task = nil
                        return true
                    }
                    if stop { return }
                }
            }
        }
    }
}
