import EngineDaemon
import Glibc
import InstallEngine
import TextBasics

/// The board's proof that a host still takes logins after an armed upgrade
/// (Documentation/COMMIT-CONFIRMED.md): a new ssh connection to it, never one shared with the
/// board's link (`ControlMaster=no`, `ControlPath=none`, before the operator's options, since
/// ssh takes the first value of a setting), in batch mode, running `true`. The board's own
/// link proves nothing: its connection was made before the upgrade, and sshd keeps an
/// established session whatever its new configuration says.
public enum FreshLogin {
    /// How long the login may take before it counts as failed.
    public static let timeout = Duration.seconds(30)

    /// The argv: `ssh -o BatchMode=yes -o ControlMaster=no -o ControlPath=none -o
    /// ConnectTimeout=20 [options] -- HOST true`.
    public static func arguments(_ ssh: SSHCommand) -> [String] {
        [ssh.program, "-o", "BatchMode=yes", "-o", "ControlMaster=no", "-o", "ControlPath=none", "-o", "ConnectTimeout=20"]
            + ssh.options + ["--", ssh.host, "true"]
    }

    /// Logs in; `nil` when it worked, else why not (ssh's last line on stderr, or its status).
    /// Blocks for up to `timeout`: call it off the monitor's thread.
    public static func check(_ ssh: SSHCommand) -> String? {
        let child: PipedChild
        do {
            child = try PipedChild(arguments: arguments(ssh))
        } catch {
            return error.description
        }
        child.closeInput()
        guard let status = child.wait(timeout: timeout) else {
            child.end(grace: .seconds(1))
            return "no answer within \(timeout.shortText)"
        }
        guard status != 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        let count = read(child.stderrRead, &buffer, buffer.count)
        let text = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        let last = text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces }.last { !$0.isEmpty }
        return last ?? "ssh exited with status \(status)"
    }
}
