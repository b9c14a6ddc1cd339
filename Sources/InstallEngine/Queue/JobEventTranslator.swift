import Synchronization

/// Turns the progress callbacks of one queue job into the queue's events: the job's number and
/// each update's id go in; a progress event takes the update's figures from its change
/// (`InstallationProgressChangedArgs.figures`) and the job's from the snapshot, a completion the
/// update's result from the snapshot, by index.
final class JobEventTranslator: Sendable {
    private let job: Int
    /// Taken once: reading them from the descriptor copied the whole descriptor on every event.
    private let plannedIDs: [String]
    /// The ids of the updates its driver added (rule 28), by index: the plan has the others.
    private let addedIDs = Mutex<[Int: String]>([:])

    init(job: Int, planned updates: [Update]) {
        self.job = job
        plannedIDs = updates.map(\.id)
    }

    /// The event `args` stands for. Called in callback order (an update is added before
    /// anything is said about it).
    func event(for args: InstallationProgressChangedArgs) -> EngineEvent {
        switch args.change {
        case .updateStarted(let index):
            return EngineEvent(kind: .updateStarted(job: job, index: index, updateID: updateID(at: index)))
        case .updateAdded(let index, let update):
            addedIDs.withLock { $0[index] = update.id }
            return EngineEvent(kind: .updateStarted(job: job, index: index, updateID: update.id, added: update))
        case .progress(let index):
            guard let figures = args.figures else { preconditionFailure("the machine gives every progress change its figures") }
            return EngineEvent(kind: .progress(
                job: job, index: index, updatePercent: figures.percent, jobPercent: args.progress.percentComplete,
                message: figures.message, jobMessage: args.progress.jobMessage))
        case .output(let index, let stream, let line):
            return EngineEvent(kind: .output(job: job, index: index, stream: stream, line: line))
        case .updateCompleted(let index):
            return EngineEvent(kind: .updateCompleted(
                job: job, index: index, updateID: updateID(at: index), result: args.progress.updateResult(at: index)))
        case .abortRequested(let force):
            return EngineEvent(kind: .jobAbortRequested(job: job, force: force))
        }
    }

    private func updateID(at index: Int) -> String {
        plannedIDs.indices.contains(index) ? plannedIDs[index] : addedIDs.withLock { $0[index] ?? "" }
    }
}
