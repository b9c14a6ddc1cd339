import Foundation
import Glibc
import TestProcessSupport

/// An `installtop` started outside tmux (serve, submit, status) the way a shell starts one:
/// empty signal mask, default dispositions, stdin /dev/null, stdout and stderr into files of
/// the test's folder, no other descriptor of the test process. Deinit ends it if it still
/// runs: SIGTERM first (serve then aborts its jobs), SIGKILL after 5 s.
final class InstalltopChild {
    let pid: pid_t
    private let stdoutPath: String
    private let stderrPath: String
    private var exitStatus: Int32?

    /// Starts `installtop arguments` in `folder`, with `extra` added to the environment; with
    /// `executable`, that program instead, `arguments` being all of its arguments (an `nsenter`
    /// into a test host that execs installtop there).
    init(_ arguments: [String], in folder: EndToEndFolder, environment extra: [String: String] = [:], executable: String? = nil) throws {
        let name = UUID().uuidString.prefix(8)
        stdoutPath = folder.path("child-\(name).stdout")
        stderrPath = folder.path("child-\(name).stderr")
        let binary = try executable ?? EndToEndFolder.binary()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try addCloseFrom(3, to: &actions)
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "interactive=no"
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        environment["XDG_STATE_HOME"] = folder.path("state")
        // No engine a test starts hands this machine's systemd a timer or a restart
        // (commit-confirmed runs), whether systemd runs here or not; a test may say otherwise.
        environment["INSTALLTOP_SYSTEMD_RUNNING"] = "0"
        environment.merge(extra) { $1 }
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = withShellLikeSignals { attributes in posix_spawn(&pid, binary, &actions, &attributes, argv, envp) }
        guard result == 0 else { throw EndToEndError("cannot start installtop: \(String(cString: strerror(result)))") }
        self.pid = pid
    }

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// The exit status (128 + signal when a signal ended it), or nil while it runs; reaps it.
    func poll() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7F
        exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return exitStatus
    }

    /// Waits for the exit; nil when it still runs after `timeout`.
    func finish(timeout: Duration = .seconds(180)) async -> Int32? {
        _ = await EndToEndFolder.eventually(timeout: timeout) { poll() != nil }
        return poll()
    }

    /// Runs `installtop arguments` to completion and returns its exit status and output.
    static func run(_ arguments: [String], in folder: EndToEndFolder) async throws -> (status: Int32?, stdout: String, stderr: String) {
        let child = try InstalltopChild(arguments, in: folder)
        let status = await child.finish()
        return (status, child.stdout, child.stderr)
    }

    deinit {
        guard poll() == nil else { return }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(5)
        while poll() == nil, ContinuousClock.now < deadline { usleep(10_000) }
        if poll() == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        }
    }
}
