import ArgumentParser
import EngineDaemon
import EngineWire
import InstallEngine

/// `installtop status`: one snapshot of the engine's queue.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print the running engine's queue once: every job and update with its state.",
        discussion: "Exit status: 0 printed, 1 no engine."
    )

    @OptionGroup var socket: SocketOption

    @Flag(help: "Print one JSON document ({\"jobs\":[…]}) instead of tables.")
    var json = false

    func run() throws {
        let client = try socket.connect()
        let model: QueueModel
        do {
            model = try Self.snapshot(from: client)
        } catch {
            StandardOutput.stderr.line("installtop: \(error)")
            throw ExitCode(1)
        }
        client.close()
        if json {
            StandardOutput.stdout.line(StatusReport.json(model))
        } else {
            StandardOutput.stdout.write(StatusReport.text(model, sanitizer: TextEnvironment.sanitizer))
        }
    }

    /// Subscribes and reads up to the end of the snapshot (giving up when the engine is silent
    /// for `DaemonRequest.replyTimeout`).
    static func snapshot(from client: EngineClient) throws(DaemonError) -> QueueModel {
        let requestID = try client.send(.subscribe)
        var model = QueueModel()
        while let message = try client.nextMessage(timeout: DaemonRequest.replyTimeout) {
            switch message {
            case .event(let event): model.apply(event)
            case .snapshotEnd: return model
            case .reply(let reply) where reply.requestID == requestID || reply.requestID == nil:
                if let error = reply.error { throw .refused(error) }
            case .reply, .snapshotBegin, .unknown: break
            }
        }
        throw .connectionClosed(client.path)
    }
}
