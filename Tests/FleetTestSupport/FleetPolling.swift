import Glibc

/// Waiting for something in the fleet (an sshd listening, a process gone) by polling with a
/// deadline, never by sleeping a fixed time.
enum FleetPolling {
    /// Calls `condition` until it holds or `deadline` passes; returns whether it held. The
    /// pause between calls starts at 1 ms (most waits here end within a few ms) and grows to
    /// 20 ms so that a slow wait does not spin.
    static func until(_ deadline: ContinuousClock.Instant, _ condition: () throws -> Bool) rethrows -> Bool {
        var pause: UInt32 = 1_000
        while true {
            if try condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }
}
