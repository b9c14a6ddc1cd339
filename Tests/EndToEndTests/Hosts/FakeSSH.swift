import Foundation
import TestProcessSupport

/// A stand-in for `ssh` on `PATH`, for the commands that reach hosts, without a network: it
/// records its arguments in `<host>.args`, then runs the remote command (with `--socket` of
/// that host's engine on this machine added) as ssh would on the host; a host named in
/// `unreachable` fails as ssh does when nothing listens (exit 255, ssh's message on stderr).
struct FakeSSH {
    /// The folder to put first on `PATH`.
    let folder: String

    /// Writes `folder/ssh`. `sockets` maps each host's name to its engine's socket.
    init(in folder: TestFolder, sockets: [String: String], unreachable: [String]) throws {
        self.folder = folder.file("fake-ssh")
        try FileManager.default.createDirectory(atPath: self.folder, withIntermediateDirectories: true)
        let cases = sockets.map { "    \($0.key)) socket='\($0.value)' ;;" }.joined(separator: "\n")
        let down = unreachable.map { "    \($0)) echo \"ssh: connect to host $host port 22: Connection refused\" >&2; exit 255 ;;" }.joined(separator: "\n")
        try ExecutableFile.write("""
            #!/bin/sh
            # Arguments: options, `--`, the host, the remote command (one word, as ssh gets it).
            args="$*"
            while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
            shift
            host=$1
            printf '%s\\n' "$args" > '\(self.folder)'/"$host".args
            case $host in
            \(down)
            \(cases)
                *) echo "ssh: Could not resolve hostname $host: Name or service not known" >&2; exit 255 ;;
            esac
            exec /bin/sh -c "$2 --socket $socket"
            """, to: self.folder + "/ssh")
    }

    /// The environment that makes installtop find this `ssh` first.
    var environment: [String: String] {
        ["PATH": folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    /// The arguments ssh got for `host` (its last run), one line.
    func arguments(of host: String) -> String {
        (try? String(contentsOfFile: folder + "/\(host).args", encoding: .utf8)) ?? ""
    }
}
