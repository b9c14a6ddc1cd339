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

    /// What a user whom an engine turned away may ask its operator for: to be added to its
    /// watch group `group` (as named), or, when the engine has none (`nil`), to serve with one.
    public static func advice(group: String?) -> String {
        guard let group else { return "ask its operator to run `installtop serve --watch-group GROUP` with a group you are in" }
        // Group membership is read at login: someone just added still connects without it.
        return "ask its operator to add you to group \(group), its `--watch-group` (a group you were just added to counts from your next login)"
    }
}
