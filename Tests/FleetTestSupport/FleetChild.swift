import Foundation
import Glibc
import TestProcessSupport

/// A child of the test process started with `posix_spawn` as a shell starts one: empty signal
/// mask, default dispositions, stdin /dev/null, stdout and stderr into files, no other
/// descriptor of the test runner. The caller reaps it (`poll`, `wait`, `stop`).
///
/// Not Foundation's `Process`: it passes on the test runner's blocked signals, and an sshd or an
/// ssh ControlPersist master started with SIGTERM blocked would only go away with SIGKILL after
/// teardown's grace period.
final class FleetChild {
    let pid: pid_t
    private var exitStatus: Int32?

    /// Starts `arguments[0]` (an absolute path) with the rest as its arguments.
    /// - Parameter environment: variables added to the test runner's.
    init(_ arguments: [String], environment: [String: String], stdoutPath: String, stderrPath: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Parallel tests write files; a long-lived sshd holding another test's descriptor would
        // keep it open for the whole run (and can make exec of a script fail with ETXTBSY).
        try addCloseFrom(3, to: &actions)

        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        var cArguments = arguments.map { strdup($0) } + [nil]
        var cEnvironment = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid: pid_t = 0
        let result = withShellLikeSignals { attributes in
            posix_spawn(&pid, arguments[0], &actions, &attributes, &cArguments, &cEnvironment)
        }
        guard result == 0 else {
            throw FleetTestError("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    /// The exit status (128 + signal number when a signal ended it), or `nil` while it runs.
    /// Reaps the process the first time it finds it exited.
    func poll() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            exitStatus = Self.decode(status)
        } else if result == -1 && errno == ECHILD {
            // Reaped elsewhere: it is gone, its status unknown.
            exitStatus = -1
        }
        return exitStatus
    }

    /// Polls until the child exits or `deadline` passes; `nil` if it still runs.
    func wait(until deadline: ContinuousClock.Instant) -> Int32? {
        _ = FleetPolling.until(deadline) { poll() != nil }
        return poll()
    }

    /// SIGTERM, then SIGKILL if it is still there after `grace`; returns once it is reaped.
    @discardableResult
    func stop(grace: Duration = .seconds(5)) -> Int32 {
        if let status = poll() { return status }
        kill(pid, SIGTERM)
        if let status = wait(until: .now + grace) { return status }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        exitStatus = Self.decode(status)
        return exitStatus ?? -1
    }

    /// WIFEXITED/WEXITSTATUS and WTERMSIG, which Swift does not import (they are macros).
    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
