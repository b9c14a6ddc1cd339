import ArgumentParser
import EngineDaemon

/// The engine a command talks to: this machine's, at its socket, or one host's over ssh.
enum EngineTarget {
    case local(SocketOption)
    case host(SSHCommand)

    /// `--socket`'s engine, or the one host `--host`/`--hosts` select.
    /// - Throws: `ValidationError` (exit 2) for several hosts, or `--socket` beside hosts.
    static func single(socket: SocketOption, hosts: HostsOptions) throws -> EngineTarget {
        guard hosts.isRemote else { return .local(socket) }
        try hosts.checkNoSocket(socket)
        return .host(try hosts.singleHost())
    }

    /// What goes before a reply or refusal: `web1: ` for a host, nothing locally (whose output
    /// stays as it always was).
    var prefix: String {
        switch self {
        case .local: return ""
        case .host(let command): return command.host + ": "
        }
    }

    /// A connection, or the reason on stderr and exit status 1 (2 for no socket to try).
    func connect() throws -> EngineClient {
        switch self {
        case .local(let socket):
            return try socket.connect()
        case .host(let command):
            do {
                return try EngineClient(ssh: command)
            } catch {
                StandardOutput.stderr.line("installtop: \(error)")
                throw ExitCode(1)
            }
        }
    }

    /// `error` as the operator reads it: a host's problems start with the host's name once.
    func describe(_ error: DaemonError) -> String {
        if case .linkFailed = error { return error.description }
        return prefix + error.description
    }
}
