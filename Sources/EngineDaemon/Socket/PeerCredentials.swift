import CUnixSocket
import Glibc

/// Who is at the other end of a Unix socket, as the kernel vouches (SO_PEERCRED).
public struct PeerCredentials: Sendable, Hashable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

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
    }
}
