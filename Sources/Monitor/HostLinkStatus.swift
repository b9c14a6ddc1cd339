#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the board reaches one host's engine.
public enum HostLinkStatus: Sendable, Hashable {
    /// ssh is starting, or the engine's queue has not arrived yet.
    case connecting
    /// The host's queue arrived and its events flow.
    case connected
    /// The link failed: `reason` is ssh's (or the bridge's) last words; the link tries again at
    /// `retryAt`. Its jobs stay shown, as they were at `since`, marked stale.
    case unreachable(reason: String, since: Date, retryAt: Date)
}
