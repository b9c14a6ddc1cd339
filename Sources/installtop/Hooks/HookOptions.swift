import ArgumentParser
import EngineDaemon
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import TextBasics

/// What every `installtop hooks …` command takes: which root, which socket.
struct HookOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "apt's configuration file, as APT_CONFIG: the hooks go into the root it names (and no dpkg.cfg.d file is written).",
        valueName: "file"))
    var aptConfig: String?

    @Option(help: ArgumentHelp(
        "The engine's socket the hooks report to (default: /run/installtop.sock for root, else $XDG_RUNTIME_DIR/installtop.sock; `watch` without an engine there watches the machine's, at /run/installtop.sock).",
        valueName: "path"))
    var socket: String?

    /// The files for this root: asks `apt-config` where `apt.conf.d` is.
    /// - Throws: `ValidationError` when `--apt-config` cannot be read (apt-config would only
    ///   warn, and name the real root's folder) or apt-config cannot say.
    func files() throws -> HookFiles {
        if let aptConfig, access(aptConfig, R_OK) != 0 {
            throw ValidationError("cannot read --apt-config \(aptConfig): \(String(cString: strerror(errno)))")
        }
        let asked = SystemCommand.run(["/usr/bin/apt-config", "shell", "PARTS", "Dir::Etc::parts/d"], environment: environment)
        guard asked.status == 0, let parts = HookFiles.shellValue(asked.stdout, name: "PARTS"), !parts.isEmpty else {
            throw ValidationError("apt-config cannot say where apt.conf.d is: \(asked.stderr.trimmingWhitespace)")
        }
        return HookFiles(aptParts: parts, dpkgParts: aptConfig == nil ? HookFiles.systemDpkgParts : nil)
    }

    /// dpkg's database folder apt uses in this root (`Dir::State::status` without the file).
    func administrativeDirectory() -> String {
        let asked = SystemCommand.run(["/usr/bin/apt-config", "shell", "STATUS", "Dir::State::status/f"], environment: environment)
        let status = asked.status == 0 ? HookFiles.shellValue(asked.stdout, name: "STATUS") ?? "" : ""
        return status.hasSuffix("/status") ? String(status.dropLast("/status".count)) : "/var/lib/dpkg"
    }

    /// `APT_CONFIG` for apt-config when `--apt-config` is given.
    private var environment: [String: String] {
        aptConfig.map { ["APT_CONFIG": $0] } ?? [:]
    }

    /// `--socket`, else root's system socket (where `serve --systemd-unit` and `watch` listen:
    /// dpkg runs as root), else the user's default.
    func socketPath() throws -> String {
        if let socket, !socket.isEmpty { return socket }
        let environment = ProcessInfo.processInfo.environment
        if getuid() == 0 { return SocketLocation.machinePath(environment: environment) }
        do {
            return try SocketLocation.defaultPath(environment: environment)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// Where `watch` looks for the engine: at `own`, then at `machine`
    /// (`SocketLocation.connectFirst`); `own` is also where it runs one when none answers, and
    /// `nil` when there is nowhere to (a user who is not root, without `XDG_RUNTIME_DIR`).
    /// Both are `--socket` when it is given, and root's the machine's socket, where the hooks
    /// report (dpkg runs as root); anyone else's own socket comes first, then the machine's,
    /// whose watch group may watch it.
    func watchedSockets() -> (own: String?, machine: String) {
        if let socket, !socket.isEmpty { return (socket, socket) }
        let environment = ProcessInfo.processInfo.environment
        let machine = SocketLocation.machinePath(environment: environment)
        return (getuid() == 0 ? machine : SocketLocation.ownPath(environment: environment), machine)
    }
}
