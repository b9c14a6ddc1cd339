import EngineDaemon
import EngineWire

/// Whether the board reaches a host's engine: ssh with the remote command (`installtop
/// bridge`), then the engine's answer to `about`, as `attach --hosts` would.
enum BoardLinkCheck {
    /// How long the engine may stay silent (connecting included) before the link counts as failed.
    static let timeout: Duration = .seconds(30)

    /// The engine's pid, or what went wrong in ssh's, the bridge's or the engine's words.
    static func check(_ command: SSHCommand) -> Result<Int32, DaemonError> {
        do throws(DaemonError) {
            let client = try EngineClient(ssh: command)
            defer { client.close() }
            let reply = try client.request(.about, timeout: timeout)
            return .success((try? EngineIdentity(reply: reply))?.pid ?? 0)
        } catch {
            return .failure(error)
        }
    }

    /// `error` without the host's name in front, which the caller prints once.
    static func words(_ error: DaemonError) -> String {
        if case .linkFailed(_, let reason) = error { return reason }
        return error.description
    }
}
