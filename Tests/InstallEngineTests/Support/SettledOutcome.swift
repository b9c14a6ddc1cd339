import InstallEngine
import Synchronization
import TestProcessSupport

/// The outcome of `running`, or `nil` when it has not settled within `timeout`; then the
/// update is killed so that a broken backend cannot leave processes behind.
func settledOutcome(of running: any RunningUpdate, within timeout: Duration = .seconds(180)) async -> UpdateRunOutcome? {
    let settled = Mutex<UpdateRunOutcome?>(nil)
    Task {
        let outcome = await running.outcome
        settled.withLock { $0 = outcome }
    }
    let inTime = await eventually(timeout: timeout) { settled.withLock { $0 } != nil }
    if !inTime { running.kill() }
    return settled.withLock { $0 }
}
