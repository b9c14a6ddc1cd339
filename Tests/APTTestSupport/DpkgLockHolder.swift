import Foundation

/// Another process holding dpkg's front-end lock of a root the way apt does (an `fcntl` write
/// lock). It must be another process: `F_GETLK` never reports a process's own locks to it, and
/// `flock(1)` takes a different kind of lock that apt and dpkg do not look at.
public final class DpkgLockHolder {
    private let process = Process()
    private let stdin = Pipe()

    /// The holder's process id, which a refusal should name.
    public var pid: Int32 { process.processIdentifier }

    /// Starts the holder and returns once it holds the lock on `path`.
    /// - Throws: when python3 cannot start or exits before saying it holds the lock.
    public init(path: String) throws {
        let stdout = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import fcntl, os, sys
            fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o640)
            fcntl.lockf(fd, fcntl.LOCK_EX)
            print("locked", flush=True)
            sys.stdin.read()
            """, path]
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // Blocks until the holder prints, or until its stdout closes because it died: no timer.
        let said = String(decoding: stdout.fileHandleForReading.availableData, as: UTF8.self)
        guard said.hasPrefix("locked") else {
            release()
            throw DpkgLockHolderError(path: path, said: said)
        }
    }

    /// Ends the holder (closing its stdin ends its read) and waits for it: the lock is free after.
    public func release() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
