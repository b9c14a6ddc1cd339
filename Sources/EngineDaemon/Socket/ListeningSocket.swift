import CUnixSocket
import Glibc

/// The engine's end of the socket: claimed with a lock so that two engines never share a path,
/// a stale socket of a dead engine replaced, a live one left alone, mode 0600 (0660 and of the
/// watch group when there is one).
final class ListeningSocket: Sendable {
    let path: String
    let descriptor: Int32
    /// Held while serving: `PATH.lock`, flock'ed. The engine removes it when it stops, while it
    /// still holds the lock; an engine that locks a file checks that it is still the one at the
    /// path, so two engines never hold two different files of one name.
    private let lockDescriptor: Int32
    /// The socket file's identity, so `remove()` never unlinks a successor's socket.
    private let device: UInt64
    private let inode: UInt64

    /// Claims `path`; `group`'s members may connect too (the engine checks what they may do).
    /// - Throws: `unsafeDirectory`, `alreadyServing` (with the running engine's pid when it
    ///   answers), `notASocket`, `system`.
    init(path: String, group: UInt32? = nil) throws(DaemonError) {
        try SocketLocation.checkDirectory(of: path)
        let lock = try Self.lock(path + ".lock", servingOn: path)
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
        guard group.map({ chown(path, uid_t.max, $0) == 0 }) ?? true,
              chmod(path, group == nil ? 0o600 : 0o660) == 0, stat(path, &info) == 0 else {
            let code = errno
            close(listener)
            unlink(path)
            close(lock)
            throw .system(group == nil ? "chmod \(path)" : "chown and chmod \(path)", errno: code)
        }
        self.path = path
        descriptor = listener
        lockDescriptor = lock
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Stops listening, removes the socket file if it is still ours, then the lock file while
    /// the lock is still held, then releases the lock, so another engine (in this process or
    /// another) may take the path and nothing is left behind.
    func remove() {
        var info = stat()
        if stat(path, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode {
            unlink(path)
        }
        close(descriptor)
        if Self.isFile(lockDescriptor, at: path + ".lock") { unlink(path + ".lock") }
        // Unlocked explicitly: a child being spawned by another thread may hold a copy of the
        // descriptor until its exec, and closing ours alone would keep the path locked.
        flock(lockDescriptor, LOCK_UN)
        close(lockDescriptor)
    }

    /// Opens and flocks the lock file at `lockPath`. A file that was unlinked between the open
    /// and the flock (its engine stopped meanwhile) is no lock on the path: it is dropped and
    /// the path's new file is tried.
    /// - Throws: `alreadyServing` when another engine holds the lock; `system`.
    private static func lock(_ lockPath: String, servingOn path: String) throws(DaemonError) -> Int32 {
        while true {
            let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard lock >= 0 else { throw .system("open \(lockPath)", errno: errno) }
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
                close(lock)
                throw .alreadyServing(path, pid: servingPID(path))
            }
            if isFile(lock, at: lockPath) { return lock }
            close(lock)
        }
    }

    /// Whether `descriptor` is the file at `path` now.
    private static func isFile(_ descriptor: Int32, at path: String) -> Bool {
        var opened = stat()
        var named = stat()
        return fstat(descriptor, &opened) == 0 && lstat(path, &named) == 0
            && opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    /// The pid of the engine answering on `path`, if one does.
    private static func servingPID(_ path: String) -> Int32? {
        let probe = cus_connect(path)
        guard probe >= 0 else { return nil }
        defer { close(probe) }
        return try? PeerCredentials(of: probe).pid
    }
}
