import Glibc

/// Whom an engine's socket file admits, read from its owner and mode: what a client that
/// connect(2) turned away (EACCES) tells its user, who can do nothing about a mode but ask the
/// engine's operator for a watch group (`serve --watch-group`, which makes the socket 0660 and
/// of that group).
public struct SocketOwnership: Sendable, Hashable {
    /// The owner's user name, or `uid N` when the user database has none.
    public let owner: String
    /// The group whose members may connect too (the socket is group-writable), by name or, when
    /// the group database has none, by number; `nil` when only the owner may.
    public let group: String?

    /// For callers that know whom the socket admits.
    public init(owner: String, group: String?) {
        self.owner = owner
        self.group = group
    }

    /// The socket at `path`'s; `nil` when it cannot be read (a folder on the way this user may
    /// not pass through).
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        owner = Self.userName(info.st_uid) ?? "uid \(info.st_uid)"
        group = info.st_mode & S_IWGRP == 0 ? nil : Self.groupName(info.st_gid) ?? String(info.st_gid)
    }

    private static func userName(_ uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }

    private static func groupName(_ gid: gid_t) -> String? {
        var entry = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name else { return nil }
        return String(cString: name)
    }
}
