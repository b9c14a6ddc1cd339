import CUnixSocket
import Glibc

/// The engine's end of the socket: claimed with a lock so that two engines never share a path,
/// a stale socket of a dead engine replaced, a live one left alone, mode 0600.
final class ListeningSocket: Sendable {
    let path: String
    let descriptor: Int32
    /// Held while serving: `PATH.lock`, flock'ed (the file stays; removing it would let two
    /// engines lock two different files of one name).
    private let lockDescriptor: Int32
    /// The socket file's identity, so `remove()` never unlinks a successor's socket.
    private let device: UInt64
    private let inode: UInt64

    /// Claims `path`.
    /// - Throws: `unsafeDirectory`, `alreadyServing` (with the running engine's pid when it
    ///   answers), `notASocket`, `system`.
    init(path: String) throws(DaemonError) {
        try SocketLocation.checkDirectory(of: path)
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw .system("open \(path).lock", errno: errno) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw .alreadyServing(path, pid: Self.servingPID(path))
        }
        // We hold the lock: whatever socket is at the path was left by an engine that is gone.
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                close(lock)
                throw .notASocket(path)
            }
            unlink(path)
        }
        let listener = cus_listen(path, 64)
        guard listener >= 0 else {
            let code = errno
            close(lock)
            throw .system("bind \(path)", errno: code)
        }
        // connect(2) needs write permission: until this chmod the umask's mode (never writable
        // by others with the usual 022) applies, and peers are checked by uid anyway.
        guard chmod(path, 0o600) == 0, stat(path, &info) == 0 else {
            let code = errno
            close(listener)
            unlink(path)
            close(lock)
            throw .system("chmod \(path)", errno: code)
        }
        self.path = path
        descriptor = listener
        lockDescriptor = lock
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Stops listening, removes the socket file if it is still ours, then releases the lock,
    /// so another engine (in this process or another) may take the path.
    func remove() {
        var info = stat()
        if stat(path, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode {
            unlink(path)
        }
        close(descriptor)
        // Unlocked explicitly: a child being spawned by another thread may hold a copy of the
        // descriptor until its exec, and closing ours alone would keep the path locked.
        flock(lockDescriptor, LOCK_UN)
        close(lockDescriptor)
    }

    /// The pid of the engine answering on `path`, if one does.
    private static func servingPID(_ path: String) -> Int32? {
        let probe = cus_connect(path)
        guard probe >= 0 else { return nil }
        defer { close(probe) }
        return try? PeerCredentials(of: probe).pid
    }
}
