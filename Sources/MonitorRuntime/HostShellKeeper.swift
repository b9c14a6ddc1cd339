import Dispatch
import EngineDaemon
import EngineWire
import Foundation
import Glibc
import InstallEngine

/// Keeps the recording of a shell the board opened on a host in that host's own history too:
/// `ssh HOST REMOTE-COMMAND --keep-shell HOST --started … --ended … --exit-status N` (the
/// board's link to the host, with the bridge's keeping options added), the recording on its
/// stdin; the bridge there writes it into its engine's history (`installtop bridge
/// --keep-shell`) and prints the run's number. The operator's copy stays where it was written
/// as the session went, whatever happens here.
struct HostShellKeeper {
    /// How long the copy may take (ssh's connection included): the board waits for it, the
    /// operator told so on the terminal.
    static let deadline: Duration = .seconds(30)

    let ssh: SSHCommand

    /// What became of the copy, for the board's sentence: `kept on web1 as its run 7`, or
    /// `not kept on web1: WHY`.
    func keep(recording path: String, startedAt: Date, endedAt: Date, exitStatus: Int32, reason: String?) -> String {
        var words = ["--keep-shell", ssh.host, "--started", RFC3339.string(from: startedAt), "--ended", RFC3339.string(from: endedAt),
                     "--exit-status", String(exitStatus)]
        if let reason { words += ["--reason", reason] }
        var command = ssh
        // ssh joins the remote command's words with spaces for the host's shell.
        command.remoteCommand += " " + words.map(ShellQuoting.word).joined(separator: " ")
        guard let recording = FileManager.default.contents(atPath: path) else {
            return "not kept on \(ssh.host): \(path) cannot be read"
        }
        let child: PipedChild
        do {
            child = try PipedChild(arguments: command.arguments)
        } catch {
            return "not kept on \(ssh.host): \(error.description)"
        }
        let finished = DispatchSemaphore(value: 0)
        let pid = child.pid
        DispatchQueue.global().async {
            // ssh that hangs (a host that stopped answering) is ended, never waited for.
            if finished.wait(timeout: .now() + .seconds(Int(Self.deadline.components.seconds))) == .timedOut { kill(pid, SIGKILL) }
        }
        _ = child.write(Array(recording))
        child.closeInput()
        let stdout = Self.readAll(child.stdoutRead)
        let stderr = Self.readAll(child.stderrRead)
        let status = child.waitForExit()
        finished.signal()
        let said = String(decoding: stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if status == 0, let run = Int(said) { return "kept on \(ssh.host) as its run \(run)" }
        let why = String(decoding: stderr, as: UTF8.self).split(separator: "\n").last.map(String.init)
            ?? (status == 128 + SIGKILL ? "no answer within \(Self.deadline.components.seconds) s" : "exit status \(status)")
        return "not kept on \(ssh.host): \(why)"
    }

    /// Everything `descriptor` gives until its end.
    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[..<count]
            } else if count < 0 && (errno == EINTR || errno == EAGAIN) {
                var ready = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
                _ = poll(&ready, 1, 100)
            } else {
                return bytes
            }
        }
    }
}
