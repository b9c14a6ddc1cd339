import Glibc

/// The group whose members may watch an engine they do not own (`serve --watch-group`): they
/// connect, subscribe and read the history, and every command that acts (submit, abort, clean
/// up, retry, confirm, decline, observe) is refused to them with the reason. The engine's own
/// uid may do everything, as without a watch group.
public struct WatchGroup: Sendable, Hashable {
    public let gid: UInt32
    /// As the operator named it (a name, or the number).
    public let name: String

    /// The group named `name` (looked up in the group database) or numbered `name`.
    /// - Throws: `DaemonError.unknownGroup` when it is neither.
    public init(_ name: String) throws(DaemonError) {
        self.name = name
        if let number = UInt32(name) {
            gid = number
            return
        }
        var group = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let status = getgrnam_r(name, &group, &buffer, buffer.count, &result)
        guard status == 0, result != nil else { throw .unknownGroup(name) }
        gid = group.gr_gid
    }

    /// For tests and callers that hold the number.
    public init(gid: UInt32) {
        self.gid = gid
        name = String(gid)
    }
}
