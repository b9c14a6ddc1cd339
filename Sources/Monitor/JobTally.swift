#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// Counts about one job that a frame needs but that would cost a walk over all its updates:
/// kept up to date event by event, so drawing a job of 10,000 updates stays cheap.
struct JobTally: Sendable, Hashable {
    /// How many updates are done, failed and aborted, of how many.
    private(set) var counts: JobCounts
    /// Whether any update requires a reboot.
    private(set) var rebootRequired = false
    /// Sum and count of finished updates' durations, for the job's ETA.
    private(set) var durationTotal: TimeInterval = 0
    private(set) var durationCount = 0
    /// The update running now.
    private(set) var running: Int?
    /// A completed job's `percentShown` (a walk over its updates), taken once when it completed.
    private(set) var completedPercent: Double?

    /// Counts `job` from scratch.
    init(_ job: JobState) {
        counts = JobCounts(total: job.updates.count)
        for (index, update) in job.updates.enumerated() {
            if update.result.resultCode == .inProgress { running = index }
            count(update.result)
        }
        if job.phase == .completed { completedPercent = job.percentShown }
    }

    /// Update `index` started; `added` when the start added it to the job (rule 28).
    mutating func started(_ index: Int, added: Bool) {
        running = index
        if added { counts.added() }
    }

    /// Update `index` got its final `result`; `previous` is the result it had before. A result
    /// given again replaces the first in the counts; the durations and the reboot keep the first.
    mutating func completed(_ index: Int, result: UpdateInstallationResult, previous: UpdateInstallationResult?) {
        if running == index { running = nil }
        if let previous, previous.resultCode.isFinal {
            counts.count(result.resultCode, replacing: previous.resultCode)
        } else {
            count(result)
        }
    }

    /// Mean duration of the finished updates; `nil` when none has one.
    var meanDuration: TimeInterval? {
        durationCount > 0 ? durationTotal / Double(durationCount) : nil
    }

    private mutating func count(_ result: UpdateInstallationResult) {
        guard result.resultCode.isFinal else { return }
        counts.count(result.resultCode)
        if result.rebootRequired { rebootRequired = true }
        if let start = result.startedAt, let end = result.endedAt {
            durationTotal += end.timeIntervalSince(start)
            durationCount += 1
        }
    }
}
