import Dispatch
import InstallEngine
import Synchronization

/// Runs an action once when one job of a queue ends, however it ends (completed: succeeded,
/// failed, aborted; or declined, which leaves the queue without completing): what must follow a
/// job its submitter does not wait for (an undo queued from the monitor). Subscribe first, submit, then `watch(job:)`: a completion that comes in
/// between is remembered. The action runs on a global queue, never on the engine's callback
/// thread (it may run apt-mark).
final class JobEndWatch: Sendable {
    private struct State {
        var job: Int?
        var completedEarly: Set<Int> = []
        var done = false
    }

    private let state = Mutex(State())
    private let action: @Sendable () -> Void
    private let subscription = Mutex<EventSubscription?>(nil)

    init(queue: JobQueue, action: @escaping @Sendable () -> Void) {
        self.action = action
        // The queue's handler holds the watch until the job ends (or `cancel`): nothing else
        // keeps it.
        let events = queue.subscribe { event in
            switch event.kind {
            case .jobCompleted(let completion): self.completed(completion.job)
            // A declined job leaves the queue without completing (rule 13): its end too.
            case .jobCleanedUp(let cleanUp): self.completed(cleanUp.job)
            default: break
            }
        }
        subscription.withLock { $0 = events }
    }

    /// The job to wait for; its action runs at once if it completed already.
    func watch(job: Int) {
        let fire = state.withLock { state -> Bool in
            state.job = job
            return state.completedEarly.contains(job) && Self.claim(&state)
        }
        if fire { run() }
    }

    /// Stops watching without running the action (the job was not queued).
    func cancel() {
        state.withLock { $0.done = true }
        subscription.withLock { $0?.cancel() }
    }

    private func completed(_ job: Int) {
        let fire = state.withLock { state -> Bool in
            guard let watched = state.job else {
                state.completedEarly.insert(job)
                return false
            }
            return watched == job && Self.claim(&state)
        }
        if fire { run() }
    }

    private static func claim(_ state: inout State) -> Bool {
        guard !state.done else { return false }
        state.done = true
        return true
    }

    private func run() {
        subscription.withLock { $0?.cancel() }
        DispatchQueue.global().async(execute: action)
    }
}
