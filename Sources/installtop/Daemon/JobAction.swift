import ArgumentParser
import EngineWire

/// The shared part of `abort` and `cleanup`: one command, one reply.
enum JobAction {
    /// Sends `command` and waits for its reply; on a refusal prints the reason and exits 1.
    static func perform(_ command: WireCommand, socket: SocketOption) throws {
        let client = try socket.connect()
        do {
            try client.request(command)
        } catch {
            StandardOutput.stderr.line("installtop: \(error)")
            throw ExitCode(1)
        }
    }
}
