import CPosixSpawn
import Glibc

/// The `posix_spawn` of every child installtop starts (`ChildSpawner`, `PipedChild`,
/// `PseudoTerminalChild`): its file actions and attributes made and freed around the call, its
/// pid or why it did not start. The child leads a process group of its own, registered so that
/// it is killed with installtop should installtop die of a fatal signal.
enum ChildLaunch {
    /// Starts `executable` with the file actions and attributes `configure` sets (it returns
    /// posix_spawn's error number, 0 when all were set; nothing starts otherwise).
    ///
    /// ETXTBSY is tried again a few times, 20 to 160 ms apart: another process (any fork
    /// anywhere on the machine that inherited a write descriptor of a freshly written script)
    /// still holds the file open for writing for a moment, and Linux offers no way to wait for
    /// that.
    static func launch(_ executable: String, arguments: [String], environment: ChildEnvironment,
                       configure: (inout posix_spawn_file_actions_t, inout posix_spawnattr_t) -> Int32) -> Result<pid_t, SystemError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        let setup = configure(&actions, &attributes)
        guard setup == 0 else { return .failure(SystemError(code: setup)) }

        var pid: pid_t = 0
        let argv = CStringArray(arguments)
        var code: Int32 = 0
        for attempt in 0..<5 {
            code = argv.withPointers { argv in
                environment.withPointers { envp in posix_spawn(&pid, executable, &actions, &attributes, argv, envp) }
            }
            guard code == ETXTBSY, attempt < 4 else { break }
            usleep(20_000 << UInt32(attempt))
        }
        guard code == 0 else { return .failure(SystemError(code: code)) }
        cps_group_register(pid)
        return .success(pid)
    }
}
