import Glibc

/// dpkg's front-end lock (`ADMINDIR/lock-frontend`), which apt takes with `fcntl` before it
/// changes anything. A simulation does not take it (Documentation/PACKAGE-FACTS.md), so an apt job checks it before
/// promising to run: a held lock is a refusal, with the holder's pid, before anything starts.
public enum DpkgLock {
    /// Who holds the lock.
    public enum State: Sendable, Hashable {
        case free
        /// Held by this process id (0 when the kernel does not say).
        case held(by: pid_t)
        /// The lock file could not be opened (no permission: not root); `errno`'s text.
        case unreadable(String)
    }

    /// Looks at the lock of the dpkg database in `administrativeDirectory` without taking it.
    public static func state(administrativeDirectory: String) -> State {
        state(ofLockFile: administrativeDirectory + "/lock-frontend")
    }

    /// Looks at an fcntl lock file of dpkg's or apt's (`lock`, `lock-frontend`, apt's lists'
    /// `lock`) without taking it. Opening it for writing makes inotify say it was written.
    public static func state(ofLockFile path: String) -> State {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        if descriptor < 0 {
            // No lock file yet: nobody can hold it.
            if errno == ENOENT { return .free }
            return .unreadable(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var query = flock()
        query.l_type = Int16(F_WRLCK)
        query.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, F_GETLK, &query) == 0 else { return .unreadable(String(cString: strerror(errno))) }
        return query.l_type == Int16(F_UNLCK) ? .free : .held(by: query.l_pid)
    }
}
