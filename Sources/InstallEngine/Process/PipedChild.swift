import CPosixSpawn
import Glibc
import Synchronization

/// A program installtop talks to over its stdin and stdout, its stderr kept apart: `ssh HOST
/// installtop bridge`, whose pipes carry a host's engine protocol. Spawned as Documentation/CHILD-PROCESSES.md
/// says (its own process group, default signal handling, an empty signal mask, nothing of ours
/// inherited but the three pipes), with installtop's environment; a name without `/` is looked
/// up in `PATH`.
///
/// The descriptors stay open until the object goes, so that a thread still polling one never
/// meets a number reused by someone else; `closeInput()` is the one that closes early (the
/// child's stdin, so it sees the end of what it reads). Whoever holds the object must reap the
/// child (`wait` or `end`), once; a second call returns the status the first one got.
public final class PipedChild: Sendable {
    /// Why the program could not be started: `cannot run ssh: No such file or directory`.
    public typealias StartFailure = ChildStartFailure

    public let pid: pid_t
    /// Read end of the child's stdout: blocking (poll it first when a read must not wait).
    public let stdoutRead: Int32
    /// Read end of the child's stderr: non-blocking.
    public let stderrRead: Int32
    /// The write end of its stdin (blocking), -1 once closed; the lock keeps a write from
    /// racing `closeInput()`.
    private let input: Mutex<Int32>
    /// Its reaping, once.
    private let reaper: ChildExit

    /// Starts `arguments` (`arguments[0]` a path, or a name found in `PATH`) with installtop's
    /// environment, `environment` added to it (its values win).
    /// - Throws: `StartFailure` when the program is missing or not executable, or a pipe
    ///   could not be made.
    public init(arguments: [String], environment: [String: String] = [:]) throws(StartFailure) {
        let childEnvironment = ChildEnvironment(adding: environment)
        let (name, executable) = try StartFailure.program(of: arguments, in: childEnvironment)
        let pipes: [ChildPipe]
        switch ChildPipe.makeThree() {
        case .success(let made): pipes = made
        case .failure(let error): throw StartFailure(description: "cannot run \(name): cannot create a pipe: \(error.description)")
        }
        // `ChildPipe` makes pipes from a child: the stdin pipe runs the other way, so the child
        // reads `pipes[0].readEnd` (made blocking for it) and installtop writes `writeEnd`.
        let stdin = pipes[0], stdout = pipes[1], stderr = pipes[2]
        _ = fcntl(stdin.readEnd, F_SETFL, fcntl(stdin.readEnd, F_GETFL) & ~O_NONBLOCK)
        _ = fcntl(stdout.readEnd, F_SETFL, fcntl(stdout.readEnd, F_GETFL) & ~O_NONBLOCK)
        let result = Self.spawn(executable, arguments: arguments, environment: childEnvironment,
                                stdin: stdin.readEnd, stdout: stdout.writeEnd, stderr: stderr.writeEnd)
        // The child has its own copies now; ours would keep its stdin and our reads from ending.
        close(stdin.readEnd)
        close(stdout.writeEnd)
        close(stderr.writeEnd)
        switch result {
        case .success(let pid):
            self.pid = pid
            reaper = ChildExit(pid: pid)
            input = Mutex(stdin.writeEnd)
            stdoutRead = stdout.readEnd
            stderrRead = stderr.readEnd
        case .failure(let error):
            close(stdin.writeEnd)
            close(stdout.readEnd)
            close(stderr.readEnd)
            throw StartFailure(description: "cannot run \(name): \(error.description)")
        }
    }

    deinit {
        input.withLock { if $0 >= 0 { close($0) } }
        close(stdoutRead)
        close(stderrRead)
    }

    /// Writes all of `bytes` to the child's stdin, waiting while its pipe is full. Returns false
    /// when that is no longer possible (closed, or the child stopped reading: EPIPE, which
    /// needs SIGPIPE ignored, as `installtop` does).
    public func write(_ bytes: [UInt8]) -> Bool {
        input.withLock { descriptor in
            guard descriptor >= 0 else { return false }
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// Whether a write of up to `PIPE_BUF` bytes to the child's stdin would return at once: its
    /// pipe has room (or is broken, which the write then reports). False once closed. For a
    /// caller that must not wait on a child that stopped reading (the grouped board: one hung
    /// host must not hold up the others).
    public var inputHasRoom: Bool {
        input.withLock { descriptor in
            guard descriptor >= 0 else { return false }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)]
            return poll(&descriptors, 1, 0) > 0
        }
    }

    /// Closes the child's stdin: it reads the end. Later writes return false.
    public func closeInput() {
        input.withLock { descriptor in
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    /// Waits up to `timeout` for the child to exit and reaps it. Returns its exit code, or 128 +
    /// the signal that ended it; `nil` when it still runs at the deadline.
    public func wait(timeout: Duration) -> Int32? {
        reaper.wait(timeout: timeout)
    }

    /// Waits for the child to exit, however long it takes, and reaps it: its exit code, or 128 +
    /// the signal that ended it.
    public func waitForExit() -> Int32 {
        reaper.reap(blocking: true) ?? 0
    }

    /// Ends the child: SIGTERM to its process group, SIGKILL when it has not exited after
    /// `grace`, then reaps it. Returns what `wait` would; a child already reaped is left alone.
    @discardableResult
    public func end(grace: Duration = .seconds(5)) -> Int32 {
        if let status = reaper.status { return status }
        _ = Glibc.kill(-pid, SIGTERM)
        if let status = wait(timeout: grace) { return status }
        _ = Glibc.kill(-pid, SIGKILL)
        return reaper.reap(blocking: true) ?? 128 + SIGKILL
    }

    private static func spawn(_ executable: String, arguments: [String], environment: ChildEnvironment,
                              stdin: Int32, stdout: Int32, stderr: Int32) -> Result<pid_t, SystemError> {
        ChildLaunch.launch(executable, arguments: arguments, environment: environment) { actions, attributes in
            // dup2 clears close-on-exec on the target.
            var setup = posix_spawn_file_actions_adddup2(&actions, stdin, 0)
            if setup == 0 { setup = posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
            if setup == 0 { setup = posix_spawn_file_actions_adddup2(&actions, stderr, 2) }
            if setup == 0 { setup = cps_spawn_addclosefrom(&actions, 3) }
            // Its own process group among them: `end` can signal whatever the child started.
            if setup == 0 { setup = ChildSpawnAttributes.apply(to: &attributes) }
            return setup
        }
    }
}
