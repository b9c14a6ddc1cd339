/// How long the board waits before trying an unreachable host again: 1 s after the first
/// failure, doubling with each failure in a row, never more than 30 s; a host that connects
/// starts over. Pure, so the schedule is tested without a clock.
public struct HostRetrySchedule: Sendable, Hashable {
    /// The first wait.
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration
    /// Failures since the last success.
    public private(set) var failures = 0

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// Counts a failure and returns how long to wait before the next try.
    public mutating func failed() -> Duration {
        failures += 1
        var delay = initial
        for _ in 1..<failures {
            delay = delay * 2
            if delay >= maximum { return maximum }
        }
        return min(delay, maximum)
    }

    /// The host answered: the next failure waits `initial` again.
    public mutating func succeeded() {
        failures = 0
    }
}
