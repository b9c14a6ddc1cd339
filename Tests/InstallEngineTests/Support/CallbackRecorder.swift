import InstallEngine
import Synchronization

/// Records a job's callbacks for assertions: the changes in order, the snapshots, completion.
final class CallbackRecorder: Sendable {
    struct Entry: Sendable {
        var change: JobChange
        var progress: InstallationProgress
    }

    private let entries = Mutex<[Entry]>([])
    private let completions = Mutex<Int>(0)
    private let concurrent = Mutex<(inside: Int, maximum: Int)>((0, 0))
    private let afterCompletion = Mutex<Int>(0)

    var changes: [JobChange] { entries.withLock { $0.map(\.change) } }
    var snapshots: [InstallationProgress] { entries.withLock { $0.map(\.progress) } }
    var completedCount: Int { completions.withLock { $0 } }
    /// The most callbacks that ever ran at the same time (rule 8 wants 1).
    var maximumConcurrency: Int { concurrent.withLock { $0.maximum } }
    /// Progress callbacks that arrived after the completed callback (rule 8 wants 0).
    var callbacksAfterCompletion: Int { afterCompletion.withLock { $0 } }

    var onProgress: InstallationProgressChangedCallback {
        { [self] _, args in
            enter()
            if completedCount > 0 { afterCompletion.withLock { $0 += 1 } }
            entries.withLock { $0.append(Entry(change: args.change, progress: args.progress)) }
            leave()
        }
    }

    var onCompleted: InstallationCompletedCallback {
        { [self] job in
            enter()
            precondition(job.isCompleted, "rule 9: isCompleted before the completed callback")
            completions.withLock { $0 += 1 }
            leave()
        }
    }

    private func enter() {
        concurrent.withLock { state in
            state.inside += 1
            state.maximum = max(state.maximum, state.inside)
        }
    }

    private func leave() { concurrent.withLock { $0.inside -= 1 } }
}
