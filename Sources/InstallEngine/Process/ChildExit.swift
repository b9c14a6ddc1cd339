import CPosixSpawn
import Glibc
import Synchronization

/// The end of one child installtop spawned by hand (`PipedChild`, `PseudoTerminalChild`):
/// reaped once (a second look returns the status the first got), waited for on its pidfd
/// rather than by looking again and again, its process group forgotten by the fatal-signal
/// cleanup once it is reaped.
final class ChildExit: Sendable {
    let pid: pid_t
    /// Polls readable once the child has exited; -1 on a kernel without pidfd_open (before 5.3).
    let descriptor: Int32
    /// The wait status once reaped (`nil` before); the lock makes the reap happen once.
    private let reaped = Mutex<Int32?>(nil)

    init(pid: pid_t) {
        self.pid = pid
        descriptor = cps_pidfd_open(pid)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The exit code (or 128 + signal) once reaped; `nil` before, even when the child has exited.
    var status: Int32? { reaped.withLock { $0 }.map(Self.code) }

    /// Reaps the child when it has exited (`blocking`: waits for it); the exit code or 128 +
    /// signal, `nil` while it runs.
    func reap(blocking: Bool) -> Int32? {
        reaped.withLock { reaped in
            if let status = reaped { return Self.code(status) }
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            } while result == -1 && cps_errno() == EINTR
            guard result == pid else {
                // Another reaper took it (the status is lost): count it as gone.
                if result == -1 { reaped = 0; cps_group_unregister(pid); return 0 }
                return nil
            }
            reaped = status
            cps_group_unregister(pid)
            return Self.code(status)
        }
    }

    /// Waits up to `timeout` for the child to exit and reaps it; `nil` when it still runs at the
    /// deadline.
    func wait(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = reap(blocking: false) { return status }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            let milliseconds = Int32(clamping: left.wholeMilliseconds + 1)
            if descriptor >= 0 {
                var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
                _ = poll(&descriptors, 1, milliseconds)
            } else {
                // No pidfd: look again every 10 ms.
                usleep(UInt32(min(milliseconds, 10)) * 1000)
            }
        }
    }

    private static func code(_ status: Int32) -> Int32 {
        cps_wait_signaled(status) == 1 ? 128 + cps_wait_term_signal(status) : cps_wait_exit_code(status)
    }
}
