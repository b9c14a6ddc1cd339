import InstallEngine
import Synchronization

/// Every job of a run as it last stood, for the summary printed at the end: the queue's own
/// snapshot loses the jobs the operator cleaned up with `c`, whose results still belong there
/// (a job whose plan was declined has none, and is left out).
final class SummaryJobs: Sendable {
    private struct State {
        /// One line of output per update is all the summary needs (it shows none).
        var model = QueueModel(outputCapacity: 1)
        var cleanedUp: [JobState] = []
    }

    private let state = Mutex(State())

    /// Starts following the events of `queue`.
    init(queue: JobQueue) {
        queue.subscribe { [self] event in
            state.withLock { state in
                // A job that leaves without a result was declined: it never ran, and has no row.
                if case .jobCleanedUp(let cleanUp) = event.kind, let job = state.model.job(cleanUp.job), job.result != nil {
                    state.cleanedUp.append(job)
                }
                state.model.apply(event)
            }
        }
    }

    /// The jobs in job-number order, cleaned-up ones included.
    var jobs: [JobState] {
        state.withLock { state in (state.model.jobs + state.cleanedUp).sorted { $0.id < $1.id } }
    }
}
