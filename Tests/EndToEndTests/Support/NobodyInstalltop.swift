import Foundation
import Glibc
import TestProcessSupport

/// installtop run as nobody (uid 65534, gid 65534) through setpriv, from a copy that user can
/// run (`OtherUserExecutables`), with an environment the test states: `XDG_RUNTIME_DIR` is set
/// or removed as asked (the test runner's own would otherwise leak in), and the machine's
/// socket is moved with `INSTALLTOP_MACHINE_SOCKET` when asked, so that no test touches a real
/// engine at /run/installtop.sock. Needs root. `remove()` deletes the copy.
struct NobodyInstalltop {
    static let setpriv = "/usr/bin/setpriv"
    /// setpriv's options for nobody in the group `group` besides its own.
    static func member(of group: String) -> [String] { ["--reuid=65534", "--regid=65534", "--groups=\(group)"] }
    /// setpriv's options for nobody in no group but its own.
    static let outsider = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    let copies: OtherUserExecutables

    /// Copies the built installtop where nobody can run it.
    /// - Throws: `OtherUserExecutablesError` at once when nobody cannot run it.
    init() throws {
        copies = try OtherUserExecutables(copying: [try InstalltopBinary.path()])
    }

    /// Runs `installtop ARGUMENTS` as nobody with `ids` (setpriv's options) in `folder` to its
    /// end; `runtimeDirectory` is `XDG_RUNTIME_DIR` (`nil`: unset), `machineSocket`
    /// `INSTALLTOP_MACHINE_SOCKET` (`nil`: unset), `input` a file for stdin (/dev/null when `nil`).
    func run(_ arguments: [String], ids: [String] = outsider, in folder: TestFolder, runtimeDirectory: String?,
             machineSocket: String?, input: String? = nil, environment: [String: String] = [:]) async throws -> RunResult {
        var command = ["/usr/bin/env"]
        command += runtimeDirectory.map { ["XDG_RUNTIME_DIR=\($0)"] } ?? ["-u", "XDG_RUNTIME_DIR"]
        command += machineSocket.map { ["INSTALLTOP_MACHINE_SOCKET=\($0)"] } ?? ["-u", "INSTALLTOP_MACHINE_SOCKET"]
        command += [Self.setpriv] + ids + [copies.path("installtop")] + arguments
        // The shell only opens stdin, then becomes env, which becomes setpriv, then installtop.
        let script = "exec \"$@\" < '\(input ?? "/dev/null")'"
        return try await InstalltopProcess(["-c", script, "sh"] + command, in: folder, executable: "/bin/sh", environment: environment)
            .finish(timeout: .seconds(120))
    }

    /// A folder for nobody's `XDG_RUNTIME_DIR` in `folder` (mode 0700, nobody's), with no engine in it.
    static func runtimeDirectory(in folder: TestFolder) throws -> String {
        let path = folder.file("run-user-65534")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard chown(path, 65_534, 65_534) == 0, chmod(path, 0o700) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)
        }
        return path
    }

    /// Deletes the copy.
    func remove() {
        copies.remove()
    }
}
