import ArgumentParser
import EngineDaemon
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
            """
    )

    @OptionGroup var socket: SocketOption

    func run() throws {
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

    /// What the board shows for a host without an engine where the bridge looks by default:
    /// the unit the package ships, and `enroll`, which sets a host up from the board's machine.
    static func noMachineEngine(looked: String) -> String {
        "no engine on this host (looked at \(looked)): start the engine the installtop package ships, "
            + "`systemctl enable --now \(SystemdUnit.name)`, or set the host up from the board's machine with `installtop enroll --host NAME`"
    }
}
