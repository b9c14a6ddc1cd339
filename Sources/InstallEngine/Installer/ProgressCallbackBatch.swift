import Synchronization

/// Progress callbacks of one job waiting in one item of the callback queue: a job adds to the
/// batch while that item is the queue's last one and has not started
/// (`SerialWorkQueue.extendLast`), so a burst of changes costs one queued item, not one each.
final class ProgressCallbackBatch: Sendable {
    private let pending: Mutex<[InstallationProgressChangedArgs]>

    init(_ first: InstallationProgressChangedArgs) {
        pending = Mutex([first])
    }

    func append(_ args: InstallationProgressChangedArgs) {
        pending.withLock { $0.append(args) }
    }

    /// Everything added so far, in order; called once, when the item runs.
    func take() -> [InstallationProgressChangedArgs] {
        pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }
}
