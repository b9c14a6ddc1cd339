import InstallEngine
import Synchronization

/// Keeps every job's result for the exit status, including jobs the operator cleaned up
/// (which leave the queue, and so its snapshot), and the jobs whose plan was declined.
final class JobResultTally: Sendable {
    private struct Counts {
        var results: [Int: InstallationResult] = [:]
        /// Every job queued, by number, with its name.
        var queued: [Int: String] = [:]
        /// The names of the jobs that left the queue without a result: declined while they
        /// awaited confirmation.
        var declined: [String] = []
    }

    private let counts = Mutex(Counts())

    /// Starts counting the events of `queue`.
    init(queue: JobQueue) {
        queue.subscribe { [self] event in
            switch event.kind {
            case .jobQueued(let descriptor): counts.withLock { $0.queued[descriptor.id] = descriptor.name }
            case .jobCompleted(let completion): counts.withLock { $0.results[completion.job] = completion.result }
            case .jobCleanedUp(let cleanUp):
                counts.withLock { counts in
                    guard counts.results[cleanUp.job] == nil, let name = counts.queued.removeValue(forKey: cleanUp.job) else { return }
                    counts.declined.append(name)
                }
            default: break
            }
        }
    }

    /// The exit status for what has completed so far; a job that never completed counts as
    /// aborted, a declined one as not confirmed (1, as apt-get's "no").
    var exitStatus: ExitStatus {
        let counts = counts.withLock { $0 }
        let unfinished = Set(counts.queued.keys).subtracting(counts.results.keys)
        return ExitStatus(results: Array(counts.results.values), unfinished: !unfinished.isEmpty, declined: !counts.declined.isEmpty)
    }

    /// The names of the jobs whose plan was declined, in the order they were.
    var declined: [String] { counts.withLock { $0.declined } }
}
