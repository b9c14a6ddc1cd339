#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SQLiteStore

/// A commit-confirmed window in words, as `installtop history --jobs` and the waiting command
/// say it: `armed: confirm by 2026-11-28 04:12:30 UTC (installtop confirm --run 7)`,
/// `confirmed at …`, `reverted at … by run 9: no confirmation by its deadline …`,
/// `expired at …: …`.
public enum ConfirmWindowText {
    /// One line for `window` at `now`, without a newline. An armed window past its deadline
    /// says its revert is due and who does it: nobody has yet (no engine, the command gone).
    public static func line(_ window: ConfirmWindow, now: Date = Date()) -> String {
        let reason = window.reason.map { ": \($0)" } ?? ""
        switch window.state {
        case .armed where now >= window.deadline:
            return "armed, its deadline \(time(window.deadline)) UTC passed: the revert is due (installtop \(window.tool) revert \(window.run), "
                + "or an engine recording into this history)"
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
        return String(SQLiteDateText.text(date).prefix(19))
    }
}
