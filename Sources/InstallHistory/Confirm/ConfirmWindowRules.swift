#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules of a commit-confirmed window, on values alone (a clock is passed in):
///
/// - The deadline decides a race: a confirmation or an extension at or after the deadline is
///   refused (the revert is due), one before it wins. The history applies the decision in the
///   transaction that read the window, so exactly one of them is recorded.
/// - A revert is due at the deadline, or at once when a check regressed and the window asked
///   for that (`revertOnRegression`).
/// - A window being reverted by a live reverter is left to it; one whose reverter is gone
///   (killed mid-revert) may be claimed again, for the same reason.
/// - An extension never brings the deadline closer.
/// - A settled window (confirmed, reverted, expired) refuses everything.
public enum ConfirmWindowRules {
    /// The decision for `action` on `window` at `now`; `reverterAlive` says whether the
    /// window's reverter (if any) still runs.
    public static func decide(_ action: ConfirmAction, on window: ConfirmWindow, at now: Date, reverterAlive: Bool) -> ConfirmDecision {
        switch window.state {
        case .confirmed:
            return .refused("run \(window.run) was confirmed already" + at(window.decidedAt))
        case .reverted:
            return .refused("run \(window.run) was reverted already" + at(window.decidedAt) + (window.reason.map { ": \($0)" } ?? ""))
        case .expired:
            return .refused("run \(window.run) is past its window and could not be reverted" + (window.reason.map { ": \($0)" } ?? ""))
        case .reverting:
            if reverterAlive || action == .confirm || isExtension(action) {
                return .refused("run \(window.run) is being reverted" + (window.reason.map { ": \($0)" } ?? ""))
            }
            // Its reverter died mid-revert: whoever asks next finishes it, for the same reason.
            return .revert(because: window.reason ?? "its revert was interrupted")
        case .armed:
            break
        }
        let passed = now >= window.deadline
        switch action {
        case .confirm:
            return passed ? .refused("too late: run \(window.run)'s deadline passed at \(ConfirmWindowText.time(window.deadline)) UTC; it is reverted")
                : .confirmed
        case .extend(let seconds):
            if passed {
                return .refused("too late: run \(window.run)'s deadline passed at \(ConfirmWindowText.time(window.deadline)) UTC; it is reverted")
            }
            return .extended(until: max(window.deadline, now.addingTimeInterval(seconds)))
        case .revertNow:
            return .revert(because: "asked by the operator")
        case .revertIfDue:
            if window.revertOnRegression, !window.regressions.isEmpty {
                return .revert(because: "a check regressed: " + window.regressions.map(\.text).joined(separator: "; "))
            }
            if passed {
                return .revert(because: "no confirmation by its deadline \(ConfirmWindowText.time(window.deadline)) UTC")
            }
            return .wait(until: window.deadline)
        }
    }

    private static func isExtension(_ action: ConfirmAction) -> Bool {
        if case .extend = action { return true }
        return false
    }

    private static func at(_ date: Date?) -> String {
        date.map { " at \(ConfirmWindowText.time($0)) UTC" } ?? ""
    }
}
