import CUnixSocket
import Glibc

/// Who is at the other end of a Unix socket, as the kernel vouches (SO_PEERCRED).
public struct PeerCredentials: Sendable, Hashable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// Its supplementary groups as they were when it connected (SO_PEERGROUPS); empty when the
    /// kernel does not say (before Linux 4.13).
    public var groups: [UInt32]

    /// The credentials of `descriptor`'s peer.
    /// - Throws: `DaemonError.system` when the kernel does not say.
    public init(of descriptor: Int32) throws(DaemonError) {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
        guard cus_peer_credentials(descriptor, &pid, &uid, &gid) == 0 else { throw .system("SO_PEERCRED", errno: errno) }
        self.pid = pid
        self.uid = uid
        self.gid = gid
        groups = Self.supplementaryGroups(of: descriptor)
    }

    /// Whether the peer is in group `gid`: its primary group or one of its supplementary ones.
    public func isMember(of gid: UInt32) -> Bool {
        self.gid == gid || groups.contains(gid)
    }

    /// SO_PEERGROUPS, asked again with the size the kernel says when the first buffer is short.
    private static func supplementaryGroups(of descriptor: Int32) -> [UInt32] {
        let peerGroups: Int32 = 59 // SO_PEERGROUPS, not in Glibc's Swift overlay
        var groups = [gid_t](repeating: 0, count: 64)
        for _ in 0..<2 {
            var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            let status = groups.withUnsafeMutableBytes { getsockopt(descriptor, SOL_SOCKET, peerGroups, $0.baseAddress, &length) }
            if status == 0 { return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.size)) }
            guard errno == ERANGE else { return [] }
            groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.size + 1)
        }
        return []
    }
}
