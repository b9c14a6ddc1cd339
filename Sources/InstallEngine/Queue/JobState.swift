#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What consumers know about one job of the queue, built from engine events.
public struct JobState: Sendable, Hashable, Identifiable {
    public var descriptor: JobDescriptor
    public var phase: JobPhase = .queued
    public var updates: [UpdateState]
    /// 0–100, the whole job (rule 6): the figure its progress events carry, or the share of
    /// its updates that finished when that is higher. It never goes down (`jobPercent`).
    public var percent: Double { jobPercent.value }
    /// `percent` as the value that keeps it from going down: `QueueModel` raises it, since
    /// a consumer may get one update's figure for the job after a higher one of another.
    public internal(set) var jobPercent = JobPercent.zero
    /// The driver's status text for the whole job, as the latest progress event said it;
    /// kept once the job has completed (a repair's outcome).
    public var jobMessage: String?
    public var abortRequested = false
    /// The abort was escalated to SIGKILL (rule 12).
    public var abortForced = false
    public var result: InstallationResult?
    public var queuedAt: Date
    public var startedAt: Date?
    public var completedAt: Date?

    public var id: Int { descriptor.id }

    public init(descriptor: JobDescriptor, queuedAt: Date, outputCapacity: Int) {
        self.descriptor = descriptor
        self.queuedAt = queuedAt
        updates = descriptor.updates.map { UpdateState(update: $0, outputCapacity: outputCapacity) }
    }

    /// How many updates have their final result.
    public var finishedCount: Int { updates.count { $0.result.resultCode.isFinal } }

    /// The update running now, if any.
    public var runningIndex: Int? { updates.firstIndex { $0.result.resultCode == .inProgress } }

    /// How many updates are done of how many (`JobCounts`: the one count every view shows),
    /// from a walk over the updates.
    public var counts: JobCounts { JobCounts(self) }

    /// The percent to show: while the job runs, `percent` (rule 6: it never goes down); once it
    /// has completed, how far it really got, each update counting its `percentReached` — an
    /// aborted job stopped at 20 % shows 20 %, not 100 %.
    public var percentShown: Double {
        guard phase == .completed, !updates.isEmpty else { return percent }
        return updates.reduce(0) { $0 + $1.percentReached } / Double(updates.count)
    }
}
