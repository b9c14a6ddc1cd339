import Foundation

/// How fast one update progresses, exponentially smoothed over time, and the ETA that follows.
///
/// Each sample's rate (percent per second since the previous sample) is blended in with a
/// weight that grows with the time between samples (`1 − e^(−Δt/τ)`), so bursts of samples do
/// not swing the estimate and the estimate forgets the past after a few τ.
public struct ProgressRate: Sendable, Hashable {
    /// Smoothing time constant, seconds.
    public static let timeConstant: TimeInterval = 4

    /// Percent per second; `nil` until two samples with time between them were seen.
    public private(set) var percentPerSecond: Double?
    /// The latest sample.
    public private(set) var lastPercent: Double
    public private(set) var lastTime: Date

    /// Starts from one sample (the update's start is 0 % at its start time).
    public init(percent: Double, at time: Date) {
        lastPercent = percent
        lastTime = time
    }

    /// Blends in a new sample. Samples not later than the last one, or going backwards, only
    /// move the reference point.
    public mutating func record(percent: Double, at time: Date) {
        let elapsed = time.timeIntervalSince(lastTime)
        guard elapsed > 0 else {
            lastPercent = max(lastPercent, percent)
            return
        }
        let rate = max(0, percent - lastPercent) / elapsed
        if let current = percentPerSecond {
            let weight = 1 - exp(-elapsed / ProgressRate.timeConstant)
            percentPerSecond = current + weight * (rate - current)
        } else {
            percentPerSecond = rate
        }
        lastPercent = percent
        lastTime = time
    }

    /// Seconds until 100 % at the smoothed rate, counting down from the last sample to `now`;
    /// `nil` without a positive rate.
    public func remainingSeconds(at now: Date) -> TimeInterval? {
        guard let rate = percentPerSecond, rate > 0.0001 else { return nil }
        let remaining = (100 - lastPercent) / rate - max(0, now.timeIntervalSince(lastTime))
        return max(0, remaining)
    }
}
