import EngineDaemon
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TextBasics

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
        guard FileManager.default.isReadableFile(atPath: path) else { return "not kept on \(ssh.host): \(path) cannot be read" }
        var said: [String] = []
        let ran = SSHCommandRun(command: command, deadline: Self.deadline).run(input: path) { said.append($0) }
        if ran.status == 0, let run = said.last.flatMap({ Int($0.trimmingSpaces) }) {
            return "kept on \(ssh.host) as its run \(run)"
        }
        return "not kept on \(ssh.host): " + SSHCommandRun.silence(ran, deadline: Self.deadline)
    }
}
