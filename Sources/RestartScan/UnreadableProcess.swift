/// A process the scan could not look into (another user's, when not root).
public struct UnreadableProcess: Sendable, Hashable {
    public var pid: Int32
    /// Its `comm`, or empty when even that could not be read.
    public var command: String
    /// What failed, as `strerror` says it (`Permission denied`).
    public var reason: String

    public init(pid: Int32, command: String, reason: String) {
        self.pid = pid
        self.command = command
        self.reason = reason
    }
}
