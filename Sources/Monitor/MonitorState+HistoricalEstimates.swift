#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

extension MonitorState {
    // MARK: - One update

    /// Seconds left by the history: the update's median past duration less the time it has
    /// run. `nil` without a median, and once the update is overdue (the live rate, if any, is
    /// then the only estimate: an ETA stuck at 0 would say nothing).
    func historicalRemaining(job: JobState, index: Int) -> TimeInterval? {
        guard let median = estimates.median(of: job.updates[index].update.id) else { return nil }
        let remaining = median - (elapsedSeconds(job: job, index: index) ?? 0)
        return remaining > 0 ? remaining : nil
    }

    /// The live-rate estimate weighted by the fraction done (`percent / 100`) and the history's
    /// by the rest, so the history rules before progress is reported and the live rate near the
    /// end. With only one of them, that one; with neither, `nil`.
    func blendedETA(live: TimeInterval?, history: TimeInterval?, percent: Double?) -> TimeInterval? {
        guard let live, let history else { return live ?? history }
        let weight = min(max((percent ?? 0) / 100, 0), 1)
        return weight * live + (1 - weight) * history
    }

    // MARK: - Queued jobs

    /// Seconds until each queued job is expected to start, by job number.
    ///
    /// Only with history (`historicalDurations` not empty): without it a queued job shows just
    /// "queued", as before this estimate existed. Jobs start in queue order as slots free up. The monitor is not told the queue's
    /// concurrency, so while jobs wait it takes the number of running jobs as the number of
    /// slots (a queue with a free slot would have started the next job). Each slot frees when
    /// its job's ETA runs out; a queued job then holds it for the sum of its updates' median
    /// durations. Empty when nothing runs or a running job has no ETA; the estimates stop at
    /// the first queued job that has an update without a median (those after it cannot be
    /// placed), that job still getting its own start.
    public func queuedStartEstimates() -> [Int: TimeInterval] {
        guard estimates.hasHistory else { return [:] }
        var slots: [TimeInterval] = []
        var queued: [JobState] = []
        for job in queue.jobs {
            switch job.phase {
            case .running where job.descriptor.observedBy != nil:
                // Another program's transaction holds no slot of the queue's.
                break
            case .running:
                guard let eta = etaSeconds(job: job) else { return [:] }
                slots.append(eta)
            case .queued:
                queued.append(job)
            case .completed:
                break
            }
        }
        guard !slots.isEmpty else { return [:] }
        var estimates: [Int: TimeInterval] = [:]
        for job in queued {
            let slot = slots.indices.min { slots[$0] < slots[$1] } ?? 0
            estimates[job.id] = slots[slot]
            guard let duration = expectedDuration(of: job) else { break }
            slots[slot] += duration
        }
        return estimates
    }

    /// The sum of the median past durations of `job`'s updates; `nil` when one has none.
    func expectedDuration(of job: JobState) -> TimeInterval? {
        var total: TimeInterval = 0
        for update in job.updates {
            guard let median = estimates.median(of: update.update.id) else { return nil }
            total += median
        }
        return total
    }
}
