import InstallEngine
import Synchronization

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
/// Tests wait with this, never with a fixed sleep.
func eventually(within timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// The outcome of `running`, or `nil` when it has not settled within `timeout`; then the
/// update is killed so that a broken backend cannot leave processes behind.
func settledOutcome(of running: any RunningUpdate, within timeout: Duration = .seconds(10)) async -> UpdateRunOutcome? {
    let settled = Mutex<UpdateRunOutcome?>(nil)
    Task {
        let outcome = await running.outcome
        settled.withLock { $0 = outcome }
    }
    let inTime = await eventually(within: timeout) { settled.withLock { $0 } != nil }
    if !inTime { running.kill() }
    return settled.withLock { $0 }
}
