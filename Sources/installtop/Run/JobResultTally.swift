import InstallEngine
import Synchronization

/// Keeps every job's result for the exit status, including jobs the operator cleaned up
/// (which leave the queue, and so its snapshot).
final class JobResultTally: Sendable {
    private let results = Mutex<[Int: InstallationResult]>([:])
    private let queued = Mutex<Set<Int>>([])

    /// Starts counting the events of `queue`.
    init(queue: JobQueue) {
        queue.subscribe { [self] event in
            switch event.kind {
            case .jobQueued(let descriptor): queued.withLock { _ = $0.insert(descriptor.id) }
            case .jobCompleted(let completion): results.withLock { $0[completion.job] = completion.result }
            default: break
            }
        }
    }

    /// The exit status for what has completed so far; a job that never completed counts as
    /// aborted.
    var exitStatus: ExitStatus {
        let results = results.withLock { $0 }
        let unfinished = queued.withLock { $0 }.subtracting(results.keys)
        return ExitStatus(results: Array(results.values), unfinished: !unfinished.isEmpty)
    }
}
