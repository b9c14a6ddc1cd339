/// Runs updates as real child processes (Documentation/CHILD-PROCESSES.md, Documentation/MANIFESTS-AND-DRIVERS.md "What a child process
/// gets").
///
/// Each update is spawned with `posix_spawn`: stdin is /dev/null; stdout, stderr and file
/// descriptor 3 (the progress channel) are pipes; it leads its own process group with default
/// signal handling and an empty signal mask; its working directory is the update's; its
/// environment is installtop's plus the update's `env` plus `INSTALLTOP_PROGRESS_FD=3`,
/// `INSTALLTOP_UPDATE_ID`, `INSTALLTOP_OPERATION` and `INSTALLTOP_JOB` (these four win over
/// `env`). An `.argv` command without `/` is looked up in the child's `PATH`; a relative path
/// resolves against the working directory; `.shell(s)` runs `/bin/sh -c s`.
///
/// One thread for every child of the process (`ChildPoller`, never the Swift concurrency pool)
/// watches them all from one epoll set, reads the pipes and hands each line to its sink
/// (`ChildSinks`): for an update, stdout/stderr lines as `.output`, fd-3 lines through
/// `ProgressChannelParser`, with consecutive progress lines of one read merged into one report.
/// Drivers start their tool's process through the same `startChild` with sinks of their own.
/// Lines are bounded (`maxLineBytes`; the rest is cut and marked), so a flood of output never
/// grows memory. The update ends when the child exits: it is reaped, what is left of its group
/// is SIGKILLed, the pipes are drained for at most `drainTimeout`, and only then the outcome
/// settles.
///
/// Limits: a process that leaves the group (`setsid`, `setpgid`) escapes `terminate()`,
/// `kill()` and the final clean-up; only per-update cgroups would catch it. The backend never
/// times out, detects reboot markers or scans output for percentages: the engine does.
public final class ProcessBackend: InstallBackend {
    /// The most bytes kept of one output or channel line.
    public let maxLineBytes: Int
    /// How long to keep reading the pipes after the child exited and its group was killed.
    public let drainTimeout: Duration

    /// - Parameters:
    ///   - maxLineBytes: the most bytes kept of one line; the rest of a longer line is dropped
    ///     and the kept part ends with ` …[cut N bytes]`. Values below 4 count as 4.
    ///   - drainTimeout: how long to wait for the pipes' end of file once the child is gone.
    public init(maxLineBytes: Int = 16 * 1024, drainTimeout: Duration = .milliseconds(200)) {
        self.maxLineBytes = maxLineBytes
        self.drainTimeout = drainTimeout
        watchesExitWithPidfd = true
    }

    /// Whether the poller watches a pidfd for the exit; without one (old kernels, or tests of
    /// that path) it checks `waitpid(WNOHANG)` every 20 ms.
    let watchesExitWithPidfd: Bool

    init(maxLineBytes: Int = 16 * 1024, drainTimeout: Duration = .milliseconds(200), watchesExitWithPidfd: Bool) {
        self.maxLineBytes = maxLineBytes
        self.drainTimeout = drainTimeout
        self.watchesExitWithPidfd = watchesExitWithPidfd
    }

    /// Spawns the update's command and returns at once. A command that cannot start
    /// (missing, not executable, bad working directory, no descriptors or threads left to watch
    /// it) gives a handle whose outcome is already `.failedToStart("cannot run <argv0>: <cause>")`.
    public func start(_ request: UpdateRunRequest, reporter: any UpdateReporter) -> any RunningUpdate {
        var environment = request.update.environment
        environment["INSTALLTOP_UPDATE_ID"] = request.update.id
        environment["INSTALLTOP_OPERATION"] = request.operation.name
        environment["INSTALLTOP_JOB"] = request.jobName
        let spec = ChildSpec(command: request.command, workingDirectory: request.update.workingDirectory, environment: environment)
        return startChild(spec, sinks: .update(reporting: reporter))
    }

    /// Spawns `spec` and returns at once: the one primitive under the per-update backend and
    /// the drivers. Each line of the child's pipes goes to its sink in `sinks`, on the poller's
    /// thread; every line has been handed on before the handle's `outcome` returns. A command
    /// that cannot start gives a handle whose outcome is already `.failedToStart(…)`, as `start`.
    public func startChild(_ spec: ChildSpec, sinks: ChildSinks) -> ChildProcess {
        let child: SpawnedChild
        switch ChildSpawner.spawn(spec, openingPidfd: watchesExitWithPidfd) {
        case .success(let spawned): child = spawned
        case .failure(let failure): return ChildProcess(finishedWith: .failedToStart(failure.message))
        }
        let handle = ChildProcess(processGroup: child.pid, controlWrite: child.controlWrite)
        // Before the poller has it: its first read must already be prompt.
        if sinks.promptlyAtFirst { handle.readPromptly(true) }
        if let error = ChildPoller.shared.watch(child, handle: handle, sinks: sinks,
                                                maxLineBytes: maxLineBytes, drainTimeout: drainTimeout) {
            let name = ChildSpawner.arguments(of: spec.command).first ?? ""
            return ChildProcess(finishedWith: .failedToStart("cannot run \(name): cannot watch it: \(error.description)"))
        }
        return handle
    }
}
