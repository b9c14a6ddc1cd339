import CPosixSpawn
import Glibc

/// A program started on a new pseudo-terminal that installtop owns: the board's shell on a host
/// (`ssh -t HOST`), whose every byte of output installtop reads and records before the
/// operator's terminal shows it.
///
/// The child leads a new session whose controlling terminal is the pseudo-terminal's slave
/// (its stdin, stdout and stderr), with default signal handling, an empty signal mask and
/// nothing else of ours open; it is spawned as Documentation/CHILD-PROCESSES.md says, not forked, so no
/// Swift code runs between fork and exec. installtop keeps the master: what it writes there is
/// what the child reads as typed, what the child writes comes out of it. Closing the master
/// hangs the terminal up (the child gets SIGHUP).
public final class PseudoTerminalChild: Sendable {
    /// Why the program could not be started: `cannot run ssh: No such file or directory`.
    public typealias StartFailure = ChildStartFailure

    public let pid: pid_t
    /// The master side: blocking, close-on-exec; read the child's output, write its input.
    public let master: Int32
    /// Its reaping, once.
    private let reaper: ChildExit

    /// Polls readable once the child has exited (its pidfd); -1 on a kernel without pidfd_open,
    /// where a caller looks with `reap(blocking: false)` after each wake-up instead.
    public var exitDescriptor: Int32 { reaper.descriptor }

    /// Starts `arguments` (`arguments[0]` a path, or a name found in `PATH`) with installtop's
    /// environment, `environment` added to it (its values win), on a pseudo-terminal of
    /// `columns` × `rows` (a size of 0 leaves the kernel's default).
    /// - Throws: `StartFailure` when no pseudo-terminal can be opened or the program is missing
    ///   or not executable.
    public init(arguments: [String], environment: [String: String] = [:], columns: Int, rows: Int) throws(StartFailure) {
        let childEnvironment = ChildEnvironment(adding: environment)
        let (name, executable) = try StartFailure.program(of: arguments, in: childEnvironment)
        var slaveName = [CChar](repeating: 0, count: 256)
        let master = cps_open_pty(&slaveName, slaveName.count)
        guard master >= 0 else {
            throw StartFailure(description: "cannot run \(name): cannot open a pseudo-terminal: \(SystemError(code: cps_errno()).description)")
        }
        if columns > 0, rows > 0 { Self.setSize(of: master, columns: columns, rows: rows) }
        let slave = String(decoding: slaveName.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch Self.spawn(executable, arguments: arguments, environment: childEnvironment, slave: slave) {
        case .success(let pid):
            self.pid = pid
            self.master = master
            reaper = ChildExit(pid: pid)
        case .failure(let error):
            close(master)
            throw StartFailure(description: "cannot run \(name): \(error.description)")
        }
    }

    deinit {
        close(master)
    }

    /// Tells the terminal its new size; the kernel sends the child's foreground process group
    /// SIGWINCH, as a terminal emulator's resize does.
    public func resize(columns: Int, rows: Int) {
        Self.setSize(of: master, columns: columns, rows: rows)
    }

    /// Reaps the child when it has exited (`blocking`: waits for it): its exit code, or 128 +
    /// the signal that ended it; `nil` while it runs. A second call returns what the first got.
    public func reap(blocking: Bool) -> Int32? {
        reaper.reap(blocking: blocking)
    }

    /// Waits up to `timeout` for the child to exit and reaps it: its exit code, or 128 + the
    /// signal that ended it; `nil` when it still runs at the deadline.
    public func wait(timeout: Duration) -> Int32? {
        reaper.wait(timeout: timeout)
    }

    /// Ends the child if it still runs: SIGHUP to its session's process group (what a terminal
    /// that goes away sends), SIGKILL when it has not exited after `grace`; then reaps it.
    @discardableResult
    public func end(grace: Duration = .seconds(2)) -> Int32 {
        if let status = reap(blocking: false) { return status }
        _ = Glibc.kill(-pid, SIGHUP)
        if let status = reaper.wait(timeout: grace) { return status }
        _ = Glibc.kill(-pid, SIGKILL)
        return reap(blocking: true) ?? 128 + SIGKILL
    }

    private static func setSize(of master: Int32, columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(clamping: rows), ws_col: UInt16(clamping: columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    private static func spawn(_ executable: String, arguments: [String], environment: ChildEnvironment, slave: String) -> Result<pid_t, SystemError> {
        // A session leader's pid is its process group, which `ChildLaunch` registers.
        ChildLaunch.launch(executable, arguments: arguments, environment: environment) { actions, attributes in
            // The session is made before the file actions run: opening the slave (without
            // O_NOCTTY) then makes it the new session's controlling terminal, so ssh can read a
            // password from it and the shell gets job control.
            var setup = cps_spawn_new_session(&attributes)
            if setup == 0 { setup = posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0) }
            if setup == 0 { setup = posix_spawn_file_actions_adddup2(&actions, 0, 1) }
            if setup == 0 { setup = posix_spawn_file_actions_adddup2(&actions, 0, 2) }
            if setup == 0 { setup = cps_spawn_addclosefrom(&actions, 3) }
            return setup
        }
    }
}
