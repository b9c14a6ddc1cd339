import Glibc

/// Where the engine's socket is, and whether a directory is safe to put it in.
public enum SocketLocation {
    /// The machine's engine's socket: where root's engine (the systemd unit's) listens.
    public static let machineSocket = "/run/installtop.sock"
    /// The systemd unit the installtop package ships (installed, not enabled), whose engine
    /// listens on `machineSocket`: what the messages about a missing machine engine name.
    public static let machineUnit = "installtop.service"

    /// The machine's engine's socket as this process sees it: `INSTALLTOP_MACHINE_SOCKET` when
    /// that is an absolute path (so that tests never touch a real engine at `machineSocket`),
    /// else `machineSocket`.
    public static func machinePath(environment: [String: String]) -> String {
        environment["INSTALLTOP_MACHINE_SOCKET"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? machineSocket
    }

    /// `$XDG_RUNTIME_DIR/installtop.sock`, or the machine's socket (`machinePath`) for root
    /// (Documentation/DAEMON.md).
    /// - Throws: `noDefaultSocket` for a user without `XDG_RUNTIME_DIR`.
    public static func defaultPath(environment: [String: String], uid: UInt32 = getuid()) throws(DaemonError) -> String {
        if let own = ownPath(environment: environment) { return own }
        if uid == 0 { return machinePath(environment: environment) }
        throw .noDefaultSocket
    }

    /// `$XDG_RUNTIME_DIR/installtop.sock`: the user's own engine's socket; `nil` when the
    /// variable is unset or empty.
    public static func ownPath(environment: [String: String]) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        return runtime + "/installtop.sock"
    }

    /// `--socket` when given, else the default.
    public static func resolve(_ option: String?, environment: [String: String], uid: UInt32 = getuid()) throws(DaemonError) -> String {
        if let option, !option.isEmpty { return option }
        return try defaultPath(environment: environment, uid: uid)
    }

    /// Connects a client (`submit`, `attach`, `status`, `bridge` …) with `connect`: to
    /// `--socket` alone when it is given; else to the user's own engine when one answers
    /// (`$XDG_RUNTIME_DIR/installtop.sock`), and otherwise to the machine's (`machinePath`).
    /// So root whose session has `XDG_RUNTIME_DIR` (an SSH login) finds the system service, and
    /// a user who is not root and has no engine of their own finds the machine's engine, which
    /// admits the members of its watch group (Documentation/DAEMON.md "Running it by hand").
    /// - Throws: at once, whatever `connect` throws other than `noEngine` (the engine turned
    ///   this user away, another user's engine …); when nothing answers, `noEngine` with
    ///   `--socket`'s path or with root's only default, else `noEngineFound` naming both places.
    public static func connectForClient<Connection>(
        _ option: String?, environment: [String: String], uid: UInt32 = getuid(),
        connect: (String) throws(DaemonError) -> Connection
    ) throws(DaemonError) -> Connection {
        if let option, !option.isEmpty { return try connect(option) }
        let machine = machinePath(environment: environment)
        // Without XDG_RUNTIME_DIR, root's own engine is the machine's.
        let own = ownPath(environment: environment) ?? (uid == 0 ? machine : nil)
        return try connectFirst(own: own, machine: machine, connect: connect)
    }

    /// Connects with `connect` to `own` when an engine answers there, else to `machine`.
    /// - Throws: at once, whatever `connect` throws other than `noEngine`; when neither
    ///   answers, `noEngine` when `own` is `machine`, else `noEngineFound`.
    public static func connectFirst<Connection>(
        own: String?, machine: String, connect: (String) throws(DaemonError) -> Connection
    ) throws(DaemonError) -> Connection {
        if let own, own != machine {
            do {
                return try connect(own)
            } catch .noEngine {
                // No engine of the user's own: the machine's is next.
            }
        }
        do {
            return try connect(machine)
        } catch .noEngine {
            throw own == machine ? .noEngine(machine) : .noEngineFound(own: own, machine: machine)
        }
    }

    /// Checks that only this user (or root) can write the directory `path` is in: the engine
    /// creates the socket there, and anyone who could write the directory could replace it.
    /// - Throws: `unsafeDirectory` saying what is wrong.
    public static func checkDirectory(of path: String, uid: UInt32 = geteuid()) throws(DaemonError) {
        let directory = parent(of: path)
        var info = stat()
        guard stat(directory, &info) == 0 else {
            throw .unsafeDirectory(directory, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .unsafeDirectory(directory, reason: "it is not a directory") }
        guard info.st_uid == uid || info.st_uid == 0 else {
            throw .unsafeDirectory(directory, reason: "it belongs to uid \(info.st_uid), not to you (uid \(uid))")
        }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw .unsafeDirectory(
                directory, reason: "others can write it (mode \(String(info.st_mode & 0o7777, radix: 8))); use a directory only you can write, such as $XDG_RUNTIME_DIR")
        }
    }

    /// The directory part of `path` (`.` when there is none).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
