/// A service a restart job restarted that did not run afterwards, or whose restart failed
/// (rule 32): no process of it may be left for a scan to list, yet it still needs a restart.
public struct FailedRestart: Sendable, Hashable {
    /// The unit (`nginx.service`) or init script's path (`/etc/init.d/redis-server`), as
    /// `RestartAdvice.services` names it.
    public var service: String
    /// What showed it, as the restart's update says it (`restart exited 0, but
    /// `systemctl is-active nginx.service` says failed`).
    public var reason: String

    public init(service: String, reason: String) {
        self.service = service
        self.reason = reason
    }
}
