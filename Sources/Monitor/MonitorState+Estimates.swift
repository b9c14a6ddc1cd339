#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

extension MonitorState {
    /// Seconds update `index` of job `job` has run: while it runs, since its start until now;
    /// once it has completed, its result's span (which a driver may know better than the
    /// events' times: an observed package's span is dpkg's lines'). `nil` when it never started,
    /// and when its result has no start (a driver that never saw it begin, an older engine).
    public func elapsedSeconds(job: JobState, index: Int) -> TimeInterval? {
        let update = job.updates[index]
        if update.result.resultCode.isFinal {
            guard let startedAt = update.result.startedAt else { return nil }
            return max(0, (update.result.endedAt ?? now).timeIntervalSince(startedAt))
        }
        guard let startedAt = update.startedAt ?? update.result.startedAt else { return nil }
        return max(0, now.timeIntervalSince(startedAt))
    }

    /// Seconds until update `index` of job `job` completes: from its smoothed rate of progress
    /// blended with its median past duration (see `blendedETA`); `nil` when it is not running
    /// or neither estimate exists (indeterminate or no rate yet, and no history or overdue), and
    /// while its job is aborting: when a stop ends (apt finishing its package, a child given its
    /// grace) no rate says, and an estimate run out would read `0ms`.
    public func etaSeconds(job: JobState, index: Int) -> TimeInterval? {
        let update = job.updates[index]
        guard update.result.resultCode == .inProgress, !job.abortRequested else { return nil }
        let live = update.percent == nil ? nil : estimates.liveRemaining(UpdateKey(job: job.id, index: index), at: now)
        return blendedETA(live: live, history: historicalRemaining(job: job, index: index), percent: update.percent)
    }

    /// Seconds until `job` completes: the running update's ETA plus, for each update not
    /// started, its median past duration, or else the mean duration of the job's finished
    /// updates (or the running update's expected total when none finished). `nil` when the
    /// running update has no ETA (the job aborting among the reasons) or the job is not running.
    public func etaSeconds(job: JobState) -> TimeInterval? {
        let tally = tally(of: job)
        guard job.phase == .running, let running = tally.running,
            let current = etaSeconds(job: job, index: running)
        else { return nil }
        let notStarted = job.updates.count - tally.counts.finished - 1
        guard notStarted > 0 else { return current }
        let perUpdate = tally.meanDuration ?? (elapsedSeconds(job: job, index: running) ?? 0) + current
        guard estimates.hasHistory else { return current + Double(notStarted) * perUpdate }
        // Updates run in order, so the ones after the running update are those not started.
        return job.updates[(running + 1)...].reduce(current) { total, update in
            update.result.resultCode == .notStarted ? total + (estimates.median(of: update.update.id) ?? perUpdate) : total
        }
    }

    /// Records a progress sample for an ETA.
    mutating func recordProgress(_ percent: Double, key: UpdateKey, at time: Date) {
        let startedAt = estimates.hasRate(key) ? nil : startedAt(of: key)
        estimates.record(percent, for: key, startedAt: startedAt, at: time)
    }

    private func startedAt(of key: UpdateKey) -> Date? {
        queue.job(key.job).flatMap { $0.updates.indices.contains(key.index) ? $0.updates[key.index].startedAt : nil }
    }
}
