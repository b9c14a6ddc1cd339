import EngineDaemon
import EngineWire

/// A pending snapshot a host's engine computes now, over a link of its own: what a night reads
/// for the packages it takes (with their age) and for whether a host needs a reboot.
enum HostPendingSnapshot {
    /// The snapshot `command`'s engine computes now (its pending upgrades, each dated by when it
    /// first listed it, its restart advice and reboot reasons); or why it could not give one.
    static func computed(on command: SSHCommand) -> Result<PendingSnapshot, DaemonError> {
        let client: EngineClient
        do throws(DaemonError) {
            client = try EngineClient(ssh: command)
        } catch {
            return .failure(error)
        }
        defer { client.close() }
        do throws(DaemonError) {
            return .success(try PendingQuestion.ask(client, refresh: false).snapshot)
        } catch {
            return .failure(error)
        }
    }
}
