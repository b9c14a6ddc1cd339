import Foundation
import Glibc
import TestProcessSupport

/// A child process started with `posix_spawn` the way a shell starts one: empty signal mask
/// and default signal dispositions, stdin /dev/null, stdout and stderr into files, and no
/// other descriptor of the test runner.
///
/// Foundation's `Process` is not used because it passes on the spawning thread's signal
/// mask, and the Swift concurrency pool's threads block almost every signal: installtop
/// would start with SIGINT, SIGTERM and SIGHUP already blocked, unlike under any shell.
/// It also reports an exit only once every descendant has closed an inherited descriptor.
///
/// Closing every other descriptor matters: tests run in parallel, and a child that inherited
/// the write descriptor of a script another test is writing makes exec of that script fail
/// with ETXTBSY ("Text file busy").
final class SpawnedProcess {
    let pid: pid_t
    private var exitStatus: Int32?

    /// Starts `executable` with `arguments` (not including argv[0]) in `workingDirectory`.
    ///
    /// - Throws: `EndToEndError.spawnFailed` with the errno text when posix_spawn fails.
    init(executable: String, arguments: [String], environment: [String: String], workingDirectory: String,
         stdoutPath: String, stderrPath: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdoutPath, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrPath, O_WRONLY | O_APPEND, 0)


        try addCloseFrom(3, to: &actions)
        try addChdir(workingDirectory, to: &actions)

        let argv = [executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = envp.map { strdup($0) } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var pid: pid_t = 0
        let result = withShellLikeSignals { attributes in
            posix_spawn(&pid, executable, &actions, &attributes, &cArguments, &cEnvironment)
        }
        guard result == 0 else { throw EndToEndError.spawnFailed(executable: executable, reason: String(cString: strerror(result))) }
        self.pid = pid
    }

    /// The exit status (128 + signal number when a signal ended it), or `nil` while it runs.
    /// Reaps the process the first time it finds it exited.
    func poll() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        exitStatus = Self.decode(status)
        return exitStatus
    }

    /// Blocks until the process exits; for after SIGKILL, which cannot be ignored.
    func waitBlocking() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        exitStatus = Self.decode(status)
        return exitStatus ?? -1
    }

    // MARK: - Status

    /// WIFEXITED/WEXITSTATUS and WTERMSIG, which Swift does not import (they are macros).
    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
