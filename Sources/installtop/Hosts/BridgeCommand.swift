import ArgumentParser
import EngineDaemon
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// `installtop bridge`: on a host, joins stdin and stdout to this host's engine socket; what
/// `--host` runs there over ssh.
struct BridgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridge",
        abstract: "Connect stdin and stdout to this host's engine socket (what `--host` runs over ssh).",
        discussion: """
            Without --socket it reaches the user's own engine ($XDG_RUNTIME_DIR/installtop.sock) or, \
            when there is none, the machine's (/run/installtop.sock), whose watch group may watch \
            (`installtop serve --watch-group`). Copies bytes both ways until the engine closes the \
            connection or nobody reads stdout any more; when stdin ends, the engine is told (the \
            socket's write side is shut down) and what it still sends is copied: without a subscribe, \
            the engine closes once it has sent every reply, and the bridge exits. Exit status: 0 the \
            link ended, 1 no engine, an engine that does not admit this user, or a read or write \
            failed, 2 invalid usage.

            With --keep-shell HOST (what the board runs after a shell it opened on this host), \
            stdin is that shell's asciicast recording instead, kept in the history of the engine \
            reached as a run of kind shell (`installtop replay RUN` plays it); the run's number \
            is printed.
            """
    )

    @OptionGroup var socket: SocketOption

    @Option(help: ArgumentHelp("Keep the shell recording on stdin in the engine's history, as the shell on this host by this name.", valueName: "host"))
    var keepShell: String?

    @Option(help: ArgumentHelp("With --keep-shell: when the shell began (RFC 3339).", valueName: "time"))
    var started: String?

    @Option(help: ArgumentHelp("With --keep-shell: when it ended (RFC 3339).", valueName: "time"))
    var ended: String?

    @Option(help: ArgumentHelp("With --keep-shell: ssh's exit status.", valueName: "status"))
    var exitStatus: Int32 = 0

    @Option(help: ArgumentHelp("With --keep-shell: what ssh last said, when it failed.", valueName: "text"))
    var reason: String?

    func validate() throws {
        guard keepShell != nil else { return }
        guard started.flatMap(RFC3339.date(from:)) != nil, ended.flatMap(RFC3339.date(from:)) != nil else {
            throw ValidationError("--keep-shell needs --started and --ended as RFC 3339 times")
        }
    }

    func run() throws {
        if let keepShell { return try keep(keepShell) }
        let descriptor: Int32
        do {
            descriptor = try socket.connect(EngineBridge.connect(to:))
        } catch .noEngine(let path) where socket.socket != nil {
            StandardOutput.stderr.line("installtop bridge: no engine at \(path) (start one with `installtop serve`)")
            throw ExitCode(1)
        } catch .noEngine(let path) {
            StandardOutput.stderr.line("installtop bridge: " + Self.noMachineEngine(looked: path))
            throw ExitCode(1)
        } catch .noEngineFound(let own, let machine) {
            StandardOutput.stderr.line("installtop bridge: " + Self.noMachineEngine(looked: [own, machine].compactMap { $0 }.joined(separator: " and ")))
            throw ExitCode(1)
        } catch {
            StandardOutput.stderr.line("installtop bridge: \(error)")
            throw ExitCode(1)
        }
        switch EngineBridge.run(input: STDIN_FILENO, output: STDOUT_FILENO, socket: descriptor) {
        case .engineClosed, .outputClosed:
            close(descriptor)
        case .failed(let call, let code):
            close(descriptor)
            StandardOutput.stderr.line("installtop bridge: \(call): \(String(cString: strerror(code)))")
            throw ExitCode(1)
        }
    }

    /// `--keep-shell`: the recording on stdin kept in the engine's history; its run printed.
    private func keep(_ host: String) throws {
        let keeping = HostShellKeeping(host: host, startedAt: started.flatMap(RFC3339.date(from:)) ?? Date(),
                                       endedAt: ended.flatMap(RFC3339.date(from:)) ?? Date(), exitStatus: exitStatus, reason: reason)
        let recording = Data(StandardInput.readToEnd())
        do {
            let client = try socket.connect { path throws(DaemonError) in try EngineClient(path: path) }
            let run = try keeping.keep(recording, engine: client)
            StandardOutput.stdout.line("\(run)")
        } catch {
            StandardOutput.stderr.line("installtop bridge: the shell's recording was not kept: \(error)")
            throw ExitCode(1)
        }
    }

    /// What the board shows for a host without an engine where the bridge looks by default:
    /// the unit the package ships, and `enroll`, which sets a host up from the board's machine.
    static func noMachineEngine(looked: String) -> String {
        "no engine on this host (looked at \(looked)): start the engine the installtop package ships, "
            + "`systemctl enable --now \(SystemdUnit.name)`, or set the host up from the board's machine with `installtop enroll --host NAME`"
    }
}
