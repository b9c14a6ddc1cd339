import TextBasics

/// When a policy's windows open, in its zone: the rule that starts a night and the one that
/// closes it, from "now" alone, so a manual clock tests them.
public struct WindowSchedule: Sendable {
    public let windows: [PatchWindow]
    public let blackouts: [BlackoutPeriod]
    public let zone: ZoneRules

    /// How far ahead `occurrence(at:)` looks: a policy whose every window falls on blackout
    /// days for two years has no next window.
    public static let horizonDays = 732

    public init(windows: [PatchWindow], blackouts: [BlackoutPeriod], zone: ZoneRules) {
        self.windows = windows
        self.blackouts = blackouts
        self.zone = zone
    }

    /// The window open at `now`, else the next one to open; `nil` when none opens within
    /// `horizonDays` (no windows, or all on blackout days). A window opening on a blackout date
    /// (its start's date in the zone) does not open at all, even when it would run into a day
    /// that is not blacked out. When two windows are open at `now`, the one that opened first.
    public func occurrence(at now: Int) -> WindowOccurrence? {
        guard let longest = windows.map(\.duration).max() else { return nil }
        let today = CivilDate(daysSince1970: PosixZoneRule.floorDivide(zone.local(ofInstant: now), 86_400))
        // A window that opened on an earlier day may still be open now.
        let firstDay = today.adding(days: -(longest / 86_400) - 1)
        var best: WindowOccurrence?
        for offset in 0...(Self.horizonDays + longest / 86_400 + 1) {
            let date = firstDay.adding(days: offset)
            if let best, date.daysSince1970 * 86_400 > zone.local(ofInstant: best.start) + 86_400 { break }
            guard !blackouts.contains(where: { $0.contains(date) }) else { continue }
            for (index, window) in windows.enumerated() where window.days.contains(date.weekday) {
                let start = zone.instant(ofLocal: date.daysSince1970 * 86_400 + window.startMinute * 60)
                let candidate = WindowOccurrence(start: start, end: start + window.duration, window: index)
                guard candidate.end > now else { continue }
                if best.map({ candidate.start < $0.start }) ?? true { best = candidate }
            }
        }
        return best
    }
}
