#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A commit-confirmed window in words, as `installtop history --jobs` and the waiting command
/// say it: `armed: confirm by 2026-11-28 04:12:30 UTC (installtop confirm --run 7)`,
/// `confirmed at …`, `reverted at … by run 9: no confirmation by its deadline …`,
/// `expired at …: …`.
public enum ConfirmWindowText {
    /// One line for `window`, without a newline.
    public static func line(_ window: ConfirmWindow) -> String {
        let reason = window.reason.map { ": \($0)" } ?? ""
        switch window.state {
        case .armed:
            return "armed: confirm by \(time(window.deadline)) UTC (installtop confirm --run \(window.run)), or it is reverted"
        case .confirmed:
            return "confirmed at \(time(window.decidedAt)) UTC (deadline \(time(window.deadline)) UTC)"
        case .reverting:
            return "reverting since \(time(window.decidedAt)) UTC\(reason)"
        case .reverted:
            return "reverted at \(time(window.decidedAt)) UTC" + (window.revertRun.map { " by run \($0)" } ?? "") + reason
        case .expired:
            return "expired at \(time(window.decidedAt)) UTC, not reverted\(reason)"
        }
    }

    /// `2026-11-28 04:12:30` (UTC, whole seconds); `-` for none.
    public static func time(_ date: Date?) -> String {
        guard let date else { return "-" }
        return String(HistoryDateText.text(date).prefix(19))
    }
}
