#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How fast one update progresses, measured over the last `window` seconds (or since its start
/// when it is younger), and the ETA that follows.
///
/// The rate is the progress made across the window divided by the window's length, not the
/// rate of the latest step: an update reporting 1 % every 0.3 s, whose samples reach the monitor
/// in uneven bursts, gets the same rate as one reporting 10 % every 3 s, and a change of pace
/// is followed within one window.
public struct ProgressRate: Sendable, Hashable {
    /// How far back the rate looks, seconds.
    public static let window: TimeInterval = 10
    /// The shortest span a rate is measured over: a first sample right after the start says
    /// little about the pace.
    public static let shortestSpan: TimeInterval = 1
    /// Samples closer together than this are merged into the later one, which bounds how many
    /// a window holds.
    static let sampleSpacing: TimeInterval = 0.25

    /// A percentage reached at a time.
    struct Sample: Sendable, Hashable {
        var percent: Double
        var time: Date
    }

    /// Oldest first: the one at or before the window's start, then those within it. Never empty.
    private var samples: [Sample]

    /// Starts from one sample (the update's start is 0 % at its start time).
    public init(percent: Double, at time: Date) {
        samples = [Sample(percent: percent, time: time)]
    }

    /// The latest percentage.
    public var lastPercent: Double { samples[samples.count - 1].percent }
    /// When the latest percentage was reported.
    public var lastTime: Date { samples[samples.count - 1].time }

    /// Percent per second across the window; `nil` while the samples span less than
    /// `shortestSpan`.
    public var percentPerSecond: Double? {
        let first = samples[0]
        let span = lastTime.timeIntervalSince(first.time)
        guard span >= Self.shortestSpan else { return nil }
        return (lastPercent - first.percent) / span
    }

    /// Adds a sample, at the percentage the engine's event carries: the engine's figure for an
    /// update never goes down (rule 6, `JobPercent`), so it is not kept from going down again
    /// here. One earlier than the latest counts at the latest's time.
    public mutating func record(percent: Double, at time: Date) {
        let sample = Sample(percent: percent, time: max(lastTime, time))
        // The latest sample merges into this one when it is close to the one before it.
        if samples.count > 1, sample.time.timeIntervalSince(samples[samples.count - 2].time) < Self.sampleSpacing {
            samples[samples.count - 1] = sample
        } else {
            samples.append(sample)
        }
        // Keep exactly one sample at or before the window's start.
        let windowStart = sample.time.addingTimeInterval(-Self.window)
        if let firstInside = samples.firstIndex(where: { $0.time > windowStart }), firstInside > 1 {
            samples.removeFirst(firstInside - 1)
        }
    }

    /// Seconds until 100 % at the measured rate, counting down from the latest sample to `now`;
    /// `nil` without a positive rate.
    public func remainingSeconds(at now: Date) -> TimeInterval? {
        guard let rate = percentPerSecond, rate > 0.0001 else { return nil }
        let remaining = (100 - lastPercent) / rate - max(0, now.timeIntervalSince(lastTime))
        return max(0, remaining)
    }
}
