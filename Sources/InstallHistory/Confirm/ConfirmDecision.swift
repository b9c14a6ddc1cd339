#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `ConfirmWindowRules` decided for one action; the history records it in the same
/// transaction it read the window in, so of a confirmation and a revert racing one wins.
public enum ConfirmDecision: Sendable, Hashable {
    /// The run is kept; the window is settled.
    case confirmed
    /// The window waits until this new deadline.
    case extended(until: Date)
    /// The caller claimed the revert (the window is `reverting`, the caller its reverter) and
    /// must run it, for this reason.
    case revert(because: String)
    /// Nothing to do yet: the window waits until its deadline.
    case wait(until: Date)
    /// Refused, with why (not armed any more, the deadline passed before the confirmation, a
    /// revert under way); nothing changed.
    case refused(String)
}
