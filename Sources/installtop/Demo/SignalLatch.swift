import Glibc
import Synchronization

/// The first termination signal caught while a latch is set; 0 for none. A global, touched
/// before the handler is installed, so Swift's lazy initialisation never runs inside it.
private let caughtSignal = Atomic<Int32>(0)

/// Catches SIGINT, SIGTERM and SIGHUP while the demo has files in `$TMPDIR` (its folder, its
/// apt root), so every way out removes them instead of dying with them left behind. Handlers
/// installed meanwhile by code that saves and restores the earlier ones (the monitor's
/// terminal) take over while they are installed.
///
/// Not a `SignalRelay`: libdispatch installs its own handler once per signal, and the SIG_IGN a
/// second relay sets would replace it, leaving the run's relay deaf. A plain `sigaction`
/// handler, restored afterwards, leaves the dispositions exactly as they were.
enum SignalLatch {
    /// Runs `body` with the termination signals latched and restores the earlier handlers.
    /// A signal the process ignores on entry (a background job of a shell) stays ignored.
    /// - Returns: what `body` returned, and the first signal that arrived meanwhile (`nil` for
    ///   none); such a signal is not delivered again.
    /// The first signal latched since `catching` began, if any: `body` asks this to stop early.
    static var caught: Int32? {
        let signal = caughtSignal.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }

    static func catching<Result>(_ body: () -> Result) -> (result: Result, signal: Int32?) {
        caughtSignal.store(0, ordering: .relaxed)
        var latch = sigaction()
        latch.__sigaction_handler.sa_handler = { signal in
            _ = caughtSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
        }
        sigemptyset(&latch.sa_mask)
        latch.sa_flags = SA_RESTART
        var saved: [(Int32, sigaction)] = []
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var old = sigaction()
            sigaction(signal, nil, &old)
            // C function pointers are not Equatable in Swift: compare their addresses.
            if unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            sigaction(signal, &latch, nil)
            saved.append((signal, old))
        }
        let result = body()
        for (signal, old) in saved {
            var restored = old
            sigaction(signal, &restored, nil)
        }
        return (result, caught)
    }
}
