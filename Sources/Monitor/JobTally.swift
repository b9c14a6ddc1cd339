#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// Counts about one job that a frame needs but that would cost a walk over all its updates:
/// kept up to date event by event, so drawing a job of 10,000 updates stays cheap.
struct JobTally: Sendable, Hashable {
    /// Updates with their final result.
    private(set) var finished = 0
    /// Of those, how many succeeded (with or without reported errors).
    private(set) var succeeded = 0
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
        for (index, update) in job.updates.enumerated() {
            if update.result.resultCode == .inProgress { running = index }
            count(update.result)
        }
        if job.phase == .completed { completedPercent = job.percentShown }
    }

    /// Update `index` started.
    mutating func started(_ index: Int) {
        running = index
    }

    /// Update `index` got its final `result`; `wasFinal` says whether it had one already.
    mutating func completed(_ index: Int, result: UpdateInstallationResult, wasFinal: Bool) {
        if running == index { running = nil }
        if !wasFinal { count(result) }
    }

    /// Mean duration of the finished updates; `nil` when none has one.
    var meanDuration: TimeInterval? {
        durationCount > 0 ? durationTotal / Double(durationCount) : nil
    }

    private mutating func count(_ result: UpdateInstallationResult) {
        guard result.resultCode.isFinal else { return }
        finished += 1
        if result.resultCode.isSuccess { succeeded += 1 }
        if result.rebootRequired { rebootRequired = true }
        if let start = result.startedAt, let end = result.endedAt {
            durationTotal += end.timeIntervalSince(start)
            durationCount += 1
        }
    }
}
