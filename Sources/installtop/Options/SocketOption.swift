import ArgumentParser
import EngineDaemon
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--socket PATH`, which every daemon-mode command takes.
struct SocketOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The engine's socket (default: $XDG_RUNTIME_DIR/installtop.sock, or /run/installtop.sock for root; a client finding no engine there reaches the machine's at /run/installtop.sock).",
        valueName: "path"))
    var socket: String?

    /// The path `serve` listens on.
    /// - Throws: `DaemonError.noDefaultSocket` when there is no default.
    func path() throws(DaemonError) -> String {
        try SocketLocation.resolve(socket, environment: ProcessInfo.processInfo.environment)
    }

    /// Connects with `connect` where a client finds the engine (`SocketLocation.connectForClient`):
    /// `--socket` as given, else the user's own engine, else the machine's.
    func connect<Connection>(_ connect: (String) throws(DaemonError) -> Connection) throws(DaemonError) -> Connection {
        try SocketLocation.connectForClient(socket, environment: ProcessInfo.processInfo.environment, connect: connect)
    }

    /// A connection to the engine, or a message on stderr and exit status 1.
    func connect() throws -> EngineClient {
        do {
            return try connect { path throws(DaemonError) in try EngineClient(path: path) }
        } catch {
            StandardOutput.stderr.line("installtop: \(error)")
            throw ExitCode(1)
        }
    }
}
