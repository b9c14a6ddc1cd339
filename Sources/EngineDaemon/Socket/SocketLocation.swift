import Glibc

/// Where the engine's socket is, and whether a directory is safe to put it in.
public enum SocketLocation {
    /// `$XDG_RUNTIME_DIR/installtop.sock`, or `/run/installtop.sock` for root (PRODUCT.md).
    /// - Throws: `noDefaultSocket` for a user without `XDG_RUNTIME_DIR`.
    public static func defaultPath(environment: [String: String], uid: UInt32 = getuid()) throws(DaemonError) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/installtop.sock" }
        if uid == 0 { return "/run/installtop.sock" }
        throw .noDefaultSocket
    }

    /// `--socket` when given, else the default.
    public static func resolve(_ option: String?, environment: [String: String], uid: UInt32 = getuid()) throws(DaemonError) -> String {
        if let option, !option.isEmpty { return option }
        return try defaultPath(environment: environment, uid: uid)
    }

    /// Where a client (`submit`, `attach`, `status` …) looks for the engine: `--socket` when
    /// given, else the default; but root whose session has `XDG_RUNTIME_DIR` (an SSH login)
    /// connects to `/run/installtop.sock` when there is no socket at the default and there is
    /// one there: that is where the system service (`serve --systemd-unit`) listens.
    /// - Throws: `noDefaultSocket` for a user without `XDG_RUNTIME_DIR`.
    public static func resolveForClient(
        _ option: String?, environment: [String: String], uid: UInt32 = getuid(),
        isSocket: (String) -> Bool = SocketLocation.isSocket
    ) throws(DaemonError) -> String {
        let path = try resolve(option, environment: environment, uid: uid)
        let system = "/run/installtop.sock"
        if option?.isEmpty ?? true, uid == 0, path != system, !isSocket(path), isSocket(system) { return system }
        return path
    }

    /// Whether a socket exists at `path`.
    public static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
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
