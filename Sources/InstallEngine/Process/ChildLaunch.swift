import CPosixSpawn
import Glibc

/// The `posix_spawn` call of a child whose file actions and attributes are set (`PipedChild`,
/// `PseudoTerminalChild`): its pid, or why it did not start. The child leads a process group of
/// its own, registered so that it is killed with installtop should installtop die of a fatal
/// signal.
enum ChildLaunch {
    static func launch(_ executable: String, arguments: [String], environment: ChildEnvironment,
                       actions: inout posix_spawn_file_actions_t, attributes: inout posix_spawnattr_t) -> Result<pid_t, SystemError> {
        var pid: pid_t = 0
        let argv = CStringArray(arguments)
        let code = argv.withPointers { argv in
            environment.withPointers { envp in posix_spawn(&pid, executable, &actions, &attributes, argv, envp) }
        }
        guard code == 0 else { return .failure(SystemError(code: code)) }
        cps_group_register(pid)
        return .success(pid)
    }
}
