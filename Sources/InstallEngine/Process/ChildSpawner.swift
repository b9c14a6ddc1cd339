import CPosixSpawn
import Glibc

/// Starts one `ChildSpec` with `posix_spawn`, following Documentation/CHILD-PROCESSES.md: stdin from
/// /dev/null, stdout/stderr/fd 3 to pipes, its own process group, default signal dispositions
/// and an empty signal mask, the spec's working directory, and nothing else inherited.
enum ChildSpawner {
    /// Why a command could not be started, as the outcome's text:
    /// `cannot run ./apply.sh: Permission denied`.
    struct Failure: Error {
        var message: String
    }

    /// The argv of `command`: its own list, or `/bin/sh -c STRING`.
    static func arguments(of command: UpdateCommand) -> [String] {
        switch command {
        case .argv(let list): return list
        case .shell(let script): return ["/bin/sh", "-c", script]
        }
    }

    /// Spawns `spec`, or explains why it cannot run. With `openingPidfd` the child comes with a
    /// pidfd when the kernel offers one.
    static func spawn(_ spec: ChildSpec, openingPidfd: Bool) -> Result<SpawnedChild, Failure> {
        let arguments = arguments(of: spec.command)
        guard let name = arguments.first else { return .failure(Failure(message: "cannot run an empty command")) }
        let workingDirectory = spec.workingDirectory
        let environment = ChildEnvironment(for: spec)

        let executable: String
        switch ExecutableLookup.resolve(name, searchPath: environment.searchPath, workingDirectory: workingDirectory) {
        case .success(let path): executable = path
        case .failure(let error): return .failure(failure(running: name, error, in: workingDirectory))
        }

        let pipes: [ChildPipe]
        switch ChildPipe.makeThree() {
        case .success(let made): pipes = made
        case .failure(let error): return .failure(Failure(message: "cannot run \(name): cannot create a pipe: \(error.description)"))
        }

        var control: ChildPipe?
        if spec.controlChannel {
            switch ChildPipe.makeControl() {
            case .success(let pipe):
                control = pipe
            case .failure(let error):
                for pipe in pipes { pipe.closeBothEnds() }
                return .failure(Failure(message: "cannot run \(name): cannot create a pipe: \(error.description)"))
            }
        }

        let result = spawn(executable, arguments: arguments, environment: environment,
                           workingDirectory: workingDirectory, stdout: pipes[0].writeEnd,
                           stderr: pipes[1].writeEnd, progress: pipes[2].writeEnd, control: control?.readEnd)
        // The child has its own copies now; ours would keep the pipes from ever reaching EOF.
        for pipe in pipes { close(pipe.writeEnd) }
        if let control { close(control.readEnd) }
        switch result {
        case .success(let pid):
            let pidfd = openingPidfd ? cps_pidfd_open(pid) : -1
            return .success(SpawnedChild(pid: pid, pidfd: pidfd, stdoutRead: pipes[0].readEnd,
                                         stderrRead: pipes[1].readEnd, progressRead: pipes[2].readEnd,
                                         controlWrite: control?.writeEnd ?? -1))
        case .failure(let error):
            for pipe in pipes { close(pipe.readEnd) }
            if let control { close(control.writeEnd) }
            return .failure(failure(running: name, error, in: workingDirectory))
        }
    }

    // MARK: - posix_spawn

    private static func spawn(
        _ executable: String, arguments: [String], environment: ChildEnvironment, workingDirectory: String?,
        stdout: Int32, stderr: Int32, progress: Int32, control: Int32?
    ) -> Result<pid_t, SystemError> {
        ChildLaunch.launch(executable, arguments: arguments, environment: environment) { actions, attributes in
            var setup = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            // dup2 clears close-on-exec on the target (glibc does so even when the numbers match).
            if setup == 0 { setup = posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
            if setup == 0 { setup = posix_spawn_file_actions_adddup2(&actions, stderr, 2) }
            if setup == 0 { setup = posix_spawn_file_actions_adddup2(&actions, progress, 3) }
            if setup == 0, let control { setup = posix_spawn_file_actions_adddup2(&actions, control, 4) }
            if setup == 0, let workingDirectory { setup = cps_spawn_addchdir(&actions, workingDirectory) }
            // Everything of ours is close-on-exec already; this is the second line of defence.
            if setup == 0 { setup = cps_spawn_addclosefrom(&actions, control == nil ? 4 : 5) }
            // Its own process group (setpgroup 0): killed should installtop die of a fatal signal.
            if setup == 0 { setup = ChildSpawnAttributes.apply(to: &attributes) }
            return setup
        }
    }

    // MARK: - Messages

    /// glibc reports a failed chdir and a failed exec with the same errno, so look at the
    /// working directory to say which one it was.
    private static func failure(running name: String, _ error: SystemError, in workingDirectory: String?) -> Failure {
        if let workingDirectory, let problem = problem(withDirectory: workingDirectory) {
            return Failure(message: "cannot run \(name): working directory \(workingDirectory): \(problem.description)")
        }
        return Failure(message: "cannot run \(name): \(error.description)")
    }

    private static func problem(withDirectory path: String) -> SystemError? {
        var info = stat()
        guard stat(path, &info) == 0 else { return .current }
        guard info.st_mode & S_IFMT == S_IFDIR else { return SystemError(code: ENOTDIR) }
        guard access(path, X_OK) == 0 else { return .current }
        return nil
    }
}
