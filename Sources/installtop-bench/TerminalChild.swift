import Glibc

/// A program started on a new pseudo-terminal of its own, as an operator's terminal would run
/// it, with its output read and thrown away so it never blocks on a full terminal.
final class TerminalChild {
    let pid: pid_t
    private let master: Int32
    private var seen: [UInt8] = []

    /// Starts `arguments` (an absolute path first) on a `rows`×`columns` pseudo-terminal with
    /// exactly `environment`; `nil` when no terminal can be opened or the spawn fails.
    init?(_ arguments: [String], environment: [String], rows: UInt16 = 60, columns: UInt16 = 200) {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        guard let name = PseudoTerminal.unlockAndName(master) else {
            close(master)
            return nil
        }
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp) == 0 else {
            close(master)
            return nil
        }
        self.pid = pid
        self.master = master
    }

    /// Reads its output until `marker` has appeared in it, checking after every read so the
    /// moment it appears is measured to the read; `false` when it did not within `timeout` or
    /// the terminal closed.
    func waitForOutput(_ marker: String, timeout: Duration) -> Bool {
        let bytes = Array(marker.utf8)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard readOnce(until: deadline) else { return false }
            if seen.count >= bytes.count,
                (0...(seen.count - bytes.count)).contains(where: { seen[$0..<($0 + bytes.count)].elementsEqual(bytes) })
            {
                return true
            }
        }
        return false
    }

    /// Reads (and forgets) its output for `duration`; `false` when the terminal closed.
    func drain(for duration: Duration) -> Bool {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            guard readOnce(until: deadline) else { return false }
        }
        return true
    }

    /// Waits for output until `deadline` and keeps what one read returns; `false` when the
    /// terminal closed.
    private func readOnce(until deadline: ContinuousClock.Instant) -> Bool {
        let left = deadline - ContinuousClock.now
        let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
        var descriptors = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 1, milliseconds) > 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(master, &buffer, buffer.count)
        guard count > 0 else { return false }
        seen += buffer[..<count]
        // Only the tail can still hold the start of a marker.
        if seen.count > 1 << 20 { seen.removeFirst(seen.count - 4_096) }
        return true
    }

    /// Types `keys`, then waits up to 5 s for it to exit and kills it when it has not.
    func quit(typing keys: String) {
        var bytes = Array(keys.utf8)
        _ = write(master, &bytes, bytes.count)
        var status: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(5)
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                break
            }
            if !drain(for: .milliseconds(50)) { usleep(10_000) }
        }
        close(master)
    }
}
