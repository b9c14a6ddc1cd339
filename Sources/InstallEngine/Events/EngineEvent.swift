import Foundation

/// One thing that happened in the engine, as consumers see it (the JSON writer, the monitor,
/// the history, daemon clients). The cases map one to one onto the JSON events of PRODUCT.md.
///
/// For one job, events arrive in the order they happened; `jobCompleted` is the last event of
/// a job except `jobCleanedUp`.
public struct EngineEvent: Sendable, Hashable {
    /// When it happened (UTC).
    public var time: Date
    public var kind: Kind

    public init(time: Date = Date(), kind: Kind) {
        self.time = time
        self.kind = kind
    }

    public enum Kind: Sendable, Hashable {
        /// `job.queued`
        case jobQueued(JobDescriptor)
        /// `job.started`: the job left the queue and its first update is about to start.
        case jobStarted(job: Int)
        /// `update.started`: announced before the update's child is spawned.
        case updateStarted(job: Int, index: Int, updateID: String)
        /// `progress`. `updatePercent` is `nil` while the update is indeterminate (rule 7).
        case progress(job: Int, index: Int, updatePercent: Double?, jobPercent: Double, message: String?)
        /// `log`: one line of the update's stdout or stderr.
        case output(job: Int, index: Int, stream: StandardStream, line: String)
        /// `update.completed`
        case updateCompleted(job: Int, index: Int, updateID: String, result: UpdateInstallationResult)
        /// `job.abortRequested`; `force` is true for the escalation of rule 12.
        case jobAbortRequested(job: Int, force: Bool)
        /// `job.completed`
        case jobCompleted(job: Int, result: InstallationResult)
        /// `job.cleanedUp`: the job left the queue; its results stay in history.
        case jobCleanedUp(job: Int)
    }

    /// The job this event is about.
    public var job: Int {
        switch kind {
        case .jobQueued(let descriptor): return descriptor.id
        case .jobStarted(let job), .updateStarted(let job, _, _), .progress(let job, _, _, _, _),
            .output(let job, _, _, _), .updateCompleted(let job, _, _, _),
            .jobAbortRequested(let job, _), .jobCompleted(let job, _), .jobCleanedUp(let job):
            return job
        }
    }
}
