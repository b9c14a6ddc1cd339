import EngineWire
import Glibc

/// Why the daemon or a client of it could not do what was asked, worded for the operator.
public enum DaemonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `--socket` and no default: not root and `XDG_RUNTIME_DIR` is unset.
    case noDefaultSocket
    /// The socket's directory is missing, not ours, or writable by others.
    case unsafeDirectory(String, reason: String)
    /// Another engine holds the socket (its pid when known).
    case alreadyServing(String, pid: Int32?)
    /// Something that is not a socket is in the way.
    case notASocket(String)
    /// Nothing listens at the path: no file, or a socket left by an engine that is gone.
    case noEngine(String)
    /// No engine answers where a client with no `--socket` looked: its own socket (`nil`
    /// without `XDG_RUNTIME_DIR`), then the machine's.
    case noEngineFound(own: String?, machine: String)
    /// connect(2) was refused for permissions (EACCES): the socket admits only its owner, and
    /// its group when it has a watch group (whom, when the socket could be read).
    case notAdmitted(String, SocketOwnership?)
    /// The engine belongs to another user (its uid).
    case engineOfAnotherUser(String, uid: UInt32)
    /// A system call failed.
    case system(String, errno: Int32)
    /// The engine closed the connection.
    case connectionClosed(String)
    /// The engine did not answer in time (stopped, or out of descriptors): how long the
    /// client waited.
    case noAnswer(String, waited: Duration)
    /// The engine refused the command.
    case refused(WireError)
    /// The engine sent something this client cannot read.
    case unexpectedMessage(String)
    /// `--watch-group` names no group of the group database and is no number.
    case unknownGroup(String)
    /// The link to a host's engine (ssh and the bridge it runs) failed: the host's name, and
    /// what ssh or the bridge last said on stderr (or how ssh ended when it said nothing).
    case linkFailed(String, reason: String)

    public var description: String {
        switch self {
        case .noDefaultSocket:
            return "no socket given and no default: XDG_RUNTIME_DIR is not set (pass --socket PATH)"
        case .unsafeDirectory(let path, let reason):
            return "will not use a socket in \(path): \(reason)"
        case .alreadyServing(let path, let pid):
            return "an engine is already serving on \(path)" + (pid.map { " (pid \($0))" } ?? "")
        case .notASocket(let path):
            return "\(path) exists and is not a socket; remove it or choose another --socket"
        case .noEngine(let path):
            return "no engine is serving on \(path) (start one with `installtop serve`)"
        case .noEngineFound(let own?, let machine):
            return "no engine is serving on \(own) or on the machine's socket \(machine) (start the machine's engine, the unit the "
                + "installtop package ships: `systemctl enable --now \(SocketLocation.machineUnit)`; or one of your own: `installtop serve`)"
        case .noEngineFound(nil, let machine):
            return "no engine is serving on the machine's socket \(machine), and XDG_RUNTIME_DIR is not set for one of your own"
                + " (start the machine's engine: `systemctl enable --now \(SocketLocation.machineUnit)`; or one of your own with"
                + " `installtop serve --socket PATH` and pass the same --socket)"
        case .notAdmitted(let path, let ownership):
            let owner = ownership.map { " (\($0.owner))" } ?? ""
            let group = ownership?.group
            let admitted = group.map { "its owner\(owner) and the members of group \($0)" } ?? "its owner\(owner)"
            return "the engine at \(path) admits only \(admitted); " + WatchGroup.advice(group: group)
        case .engineOfAnotherUser(let path, let uid):
            return "the engine on \(path) runs as uid \(uid), neither as you nor as root; refusing to talk to it"
        case .system(let call, let code):
            return "\(call): \(String(cString: strerror(code)))"
        case .connectionClosed(let path):
            return "the engine on \(path) closed the connection"
        case .noAnswer(let path, let waited):
            return "the engine on \(path) did not answer within \(Self.spoken(waited))"
        case .refused(let error):
            return error.message
        case .unexpectedMessage(let text):
            return "the engine sent something unexpected: \(text)"
        case .unknownGroup(let name):
            return "no group \(name) (give a group's name or number)"
        case .linkFailed(let host, let reason):
            return "\(host): \(reason)"
        }
    }

    /// What connect(2) failing with `code` on `path` means for a client.
    static func connecting(_ path: String, failedWith code: Int32) -> DaemonError {
        switch code {
        case ENOENT, ECONNREFUSED: return .noEngine(path)
        case ENOTSOCK: return .notASocket(path)
        case EACCES: return .notAdmitted(path, SocketOwnership(path: path))
        default: return .system("connect \(path)", errno: code)
        }
    }

    /// `30 s` for whole seconds; anything else in milliseconds, rounded up (`400 ms`,
    /// `1500 ms`), so that a sub-second wait never reads `0 s`. A negative wait reads `0 s`.
    private static func spoken(_ duration: Duration) -> String {
        let (seconds, attoseconds) = max(duration, .zero).components
        guard attoseconds != 0 else { return "\(seconds) s" }
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        let milliseconds = seconds * 1000 + (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
        return "\(milliseconds) ms"
    }
}
