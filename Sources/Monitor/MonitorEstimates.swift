#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// What the monitor knows to estimate times with: the smoothed progress rate of each running
/// update and, with history, the median past duration of each update id. Its methods keep the
/// rates in step with the updates; `MonitorState+Estimates` turns both into ETAs.
struct MonitorEstimates: Sendable {
    /// Smoothed progress rates of running updates.
    private(set) var rates: [UpdateKey: ProgressRate] = [:]
    /// Median seconds of past successful runs by update id (empty without history).
    var historicalDurations: [String: TimeInterval] = [:]

    /// True when the history gave at least one median.
    var hasHistory: Bool { !historicalDurations.isEmpty }

    /// The median past duration of update id `id`, if the history has one.
    func median(of id: String) -> TimeInterval? { historicalDurations[id] }

    /// Seconds left for update `key` at its current rate; `nil` before a rate exists.
    func liveRemaining(_ key: UpdateKey, at now: Date) -> TimeInterval? {
        rates[key]?.remainingSeconds(at: now)
    }

    /// Whether update `key` has a rate: if not, `record` wants its start time.
    func hasRate(_ key: UpdateKey) -> Bool { rates[key] != nil }

    /// Update `key` started at `time`: its rate starts from 0 % then.
    mutating func updateStarted(_ key: UpdateKey, at time: Date) {
        rates[key] = ProgressRate(percent: 0, at: time)
    }

    /// Records that update `key` reached `percent` at `time`; an update whose start was not
    /// seen (see `hasRate`) starts its rate at `startedAt` (or at `time`).
    mutating func record(_ percent: Double, for key: UpdateKey, startedAt: Date?, at time: Date) {
        if rates[key] == nil { rates[key] = ProgressRate(percent: 0, at: startedAt ?? time) }
        rates[key]?.record(percent: percent, at: time)
    }

    /// Update `key` has its result: it needs no estimate any more.
    mutating func updateEnded(_ key: UpdateKey) { rates[key] = nil }

    /// Job `job` completed: none of its updates needs an estimate any more.
    mutating func jobEnded(_ job: Int) { rates = rates.filter { $0.key.job != job } }
}
