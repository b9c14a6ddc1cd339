#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What someone asks of an armed run's window; `ConfirmWindowRules` decides.
public enum ConfirmAction: Sendable, Hashable {
    /// `installtop confirm --run RUN`: keep the run.
    case confirm
    /// `installtop confirm --run RUN --extend DURATION`: wait longer, until `seconds` from now
    /// (never earlier than the deadline already is).
    case extend(seconds: Double)
    /// The waiting command or the engine at a tick: revert when the deadline has passed, or at
    /// once on a regression when the window asked for that.
    case revertIfDue
    /// `installtop apt revert RUN`: the operator asks for the revert now.
    case revertNow
}
