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
    /// ssh's link stands but the engine has sent nothing since `since`, not even an answer to
    /// the board's question: stopped or hung. Its jobs stay shown, as they were at `since`,
    /// marked stale, until it answers again; nothing is sent to it meanwhile.
    case silent(since: Date)

    /// When what is shown of the host was last current; `nil` while its link is up and it answers.
    public var staleSince: Date? {
        switch self {
        case .unreachable(_, let since, _), .silent(let since): return since
        case .connecting, .connected: return nil
        }
    }
}
