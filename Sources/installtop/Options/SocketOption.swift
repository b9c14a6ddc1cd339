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
        "The engine's socket (default: $XDG_RUNTIME_DIR/installtop.sock, or /run/installtop.sock for root).",
        valueName: "path"))
    var socket: String?

    /// The path `serve` listens on.
    /// - Throws: `DaemonError.noDefaultSocket` when there is no default.
    func path() throws(DaemonError) -> String {
        try SocketLocation.resolve(socket, environment: ProcessInfo.processInfo.environment)
    }

    /// Where a client looks for the engine (`SocketLocation.resolveForClient`).
    /// - Throws: `DaemonError.noDefaultSocket` when there is no default.
    func clientPath() throws(DaemonError) -> String {
        try SocketLocation.resolveForClient(socket, environment: ProcessInfo.processInfo.environment)
    }

    /// A connection to the engine, or a message on stderr and exit status 1 (2 when there is
    /// no socket to try: a usage error).
    func connect() throws -> EngineClient {
        do {
            return try EngineClient(path: try clientPath())
        } catch {
            StandardOutput.stderr.line("installtop: \(error)")
            throw ExitCode(error == .noDefaultSocket ? ExitStatus.invalidUsage.rawValue : 1)
        }
    }
}
