#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One thing that happened in the engine, as consumers see it (the JSON writer, the monitor,
/// the history, daemon clients). The cases map one to one onto the JSON events of Documentation/JSON-EVENTS.md.
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

    /// What happened. Every case carries one named payload, so a field is added in one place.
    /// The large payloads of rare events (a job's descriptor, an added update, a job's results)
    /// are boxed (`indirect`), so the progress and output events, copied on every step of
    /// their delivery, stay small.
    public enum Kind: Sendable, Hashable {
        /// `job.queued`
        indirect case jobQueued(JobDescriptor)
        case jobConfirmed(JobConfirmation)
        case jobStarted(JobStart)
        indirect case updateStarted(UpdateStart)
        case progress(UpdateProgress)
        case output(UpdateOutput)
        case updateCompleted(UpdateCompletion)
        case jobAbortRequested(AbortRequest)
        indirect case jobCompleted(JobCompletion)
        case jobCleanedUp(JobCleanUp)

        // MARK: - Building events by their fields

        public static func jobConfirmed(job: Int) -> Kind { .jobConfirmed(JobConfirmation(job: job)) }

        public static func jobStarted(job: Int) -> Kind { .jobStarted(JobStart(job: job)) }

        public static func updateStarted(job: Int, index: Int, updateID: String, added: Update? = nil) -> Kind {
            .updateStarted(UpdateStart(job: job, index: index, updateID: updateID, added: added))
        }

        public static func progress(
            job: Int, index: Int, updatePercent: Double?, jobPercent: Double, message: String?, jobMessage: String? = nil
        ) -> Kind {
            .progress(UpdateProgress(
                job: job, index: index, updatePercent: updatePercent, jobPercent: jobPercent, message: message, jobMessage: jobMessage))
        }

        public static func output(job: Int, index: Int, stream: StandardStream, line: String) -> Kind {
            .output(UpdateOutput(job: job, index: index, stream: stream, line: line))
        }

        public static func updateCompleted(job: Int, index: Int, updateID: String, result: UpdateInstallationResult) -> Kind {
            .updateCompleted(UpdateCompletion(job: job, index: index, updateID: updateID, result: result))
        }

        public static func jobAbortRequested(job: Int, force: Bool) -> Kind { .jobAbortRequested(AbortRequest(job: job, force: force)) }

        public static func jobCompleted(job: Int, result: InstallationResult) -> Kind {
            .jobCompleted(JobCompletion(job: job, result: result))
        }

        public static func jobCleanedUp(job: Int) -> Kind { .jobCleanedUp(JobCleanUp(job: job)) }
    }

    /// The job this event is about.
    public var job: Int {
        switch kind {
        case .jobQueued(let descriptor): return descriptor.id
        case .jobConfirmed(let event): return event.job
        case .jobStarted(let event): return event.job
        case .updateStarted(let event): return event.job
        case .progress(let event): return event.job
        case .output(let event): return event.job
        case .updateCompleted(let event): return event.job
        case .jobAbortRequested(let event): return event.job
        case .jobCompleted(let event): return event.job
        case .jobCleanedUp(let event): return event.job
        }
    }
}
