import ArgumentParser
import EngineWire
import EngineDaemon

/// The shared part of `submit`, `abort` and `cleanup`: one command, one reply.
enum DaemonRequest {
    /// How long an engine may stay silent (stopped, or out of descriptors) before a command
    /// asks whether it is alive, and then before it says so; an engine that answers goes on
    /// being waited for (`submit` of a job of a kind plans it by running its tool, which on a
    /// loaded host can take longer); `cleanup`, which waits for a job, has no limit.
    static let replyTimeout: Duration = .seconds(30)

    /// Sends `command` and returns its reply; on a refusal, no engine or no answer within
    /// `timeout`, prints why and exits 1.
    @discardableResult
    static func perform(_ command: WireCommand, socket: SocketOption, timeout: Duration?) throws -> WireReply {
        try perform(command, on: .local(socket), timeout: timeout)
    }

    /// The same through `target`'s engine; a host's refusals and failures name the host.
    @discardableResult
    static func perform(_ command: WireCommand, on target: EngineTarget, timeout: Duration?) throws -> WireReply {
        let client = try target.connect()
        defer { client.close() }
        do {
            return try client.request(command, timeout: timeout)
        } catch {
            StandardOutput.stderr.line("installtop: \(target.describe(error))")
            throw ExitCode(1)
        }
    }
}
