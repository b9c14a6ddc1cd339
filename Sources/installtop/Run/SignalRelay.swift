import Dispatch
import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into calls of a handler (with how many have arrived so far),
/// instead of the default of dying with children still running. Children are unaffected: the
/// process backend resets their signal dispositions when it spawns them.
final class SignalRelay {
    private let sources: [any DispatchSourceSignal]
    private let signals: [Int32]

    /// - Parameter handler: called on a private queue with the signal and the running count of
    ///   signals received (1 for the first).
    init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP], handler: @escaping @Sendable (Int32, Int) -> Void) {
        self.signals = signals
        let queue = DispatchQueue(label: "installtop.signals")
        let counter = Counter()
        sources = signals.map { signal in
            Glibc.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler { handler(signal, counter.next()) }
            source.resume()
            return source
        }
    }

    /// Stops relaying and restores the default dispositions.
    func cancel() {
        for source in sources { source.cancel() }
        for signal in signals { Glibc.signal(signal, SIG_DFL) }
    }

    private final class Counter: Sendable {
        private let count = Atomic(0)
        func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    }
}
