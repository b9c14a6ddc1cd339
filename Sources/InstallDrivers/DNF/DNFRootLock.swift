import Glibc
import RestartScan
import CDispatch

/// Whether a dnf or rpm transaction may be running in a root: dnf's rpmdb lock names a live
/// process (`var/lib/dnf/rpmdb_lock.pid`), or a process holds rpm's transaction lock
/// (`var/lib/rpm/.rpm.lock`, rpm's `%_rpmlock_path` beside its database). Only looked at, never
/// taken, as the helper looks before it runs.
public enum DNFRootLock {
    /// `root` is the installroot; `nil` for this system.
    public static func isHeld(root: String?) -> Bool {
        let base = root.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        // A zombie (killed, its parent not yet reaping it: an orphan waits for init) runs
        // nothing and holds no lock, although its pid still answers.
        if let pid = pidInFile(base + "/var/lib/dnf/rpmdb_lock.pid"), kill(pid, 0) == 0 || errno == EPERM,
           ProcFS().stat(of: pid)?.isDead != true { return true }
        return rpmLockHeld(base + "/var/lib/rpm/.rpm.lock")
    }

    private static func pidInFile(_ path: String) -> pid_t? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 32)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return pid_t(text.filter { !$0.isWhitespace }).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Whether another process holds a write lock on `path` (fcntl's `F_GETLK`).
    private static func rpmLockHeld(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var query = flock()
        query.l_type = Int16(F_WRLCK)
        query.l_whence = Int16(SEEK_SET)
        guard fcntl(fd, F_GETLK, &query) == 0 else { return false }
        return query.l_type != Int16(F_UNLCK)
    }
}
