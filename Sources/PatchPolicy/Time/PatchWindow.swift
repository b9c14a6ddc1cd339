import TextBasics

/// A recurring window: on each of `days`, from `start` (wall-clock time in the policy's zone) for
/// `duration`. A window may run past midnight; it belongs to the day it starts on.
public struct PatchWindow: Sendable, Hashable {
    /// Never empty.
    public let days: Set<Weekday>
    /// Minutes after local midnight, 0 to 1439.
    public let startMinute: Int
    /// Elapsed seconds, more than 0 and at most a week: a 3 h window is 3 real hours also on the
    /// night the clocks change.
    public let duration: Int

    public init(days: Set<Weekday>, startMinute: Int, duration: Int) {
        self.days = days
        self.startMinute = startMinute
        self.duration = duration
    }

    /// `HH:MM`.
    public var startText: String { Self.clockText(minutes: startMinute) }

    static func clockText(minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}
