#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics

/// Which dpkg a `DpkgLogWatcher` follows: its database (whose lock says who runs it) and the log
/// it writes, as apt's configuration names them.
public struct DpkgLogSource: Sendable, Hashable {
    /// dpkg's database folder (`/var/lib/dpkg`).
    public var administrativeDirectory: String
    /// dpkg's log (`/var/log/dpkg.log`).
    public var logPath: String

    public init(administrativeDirectory: String, logPath: String) {
        self.administrativeDirectory = administrativeDirectory
        self.logPath = logPath
    }

    /// The database and log of the root `aptConfig` names (the system's when `nil`): the log is
    /// the last `--log` in apt's `DPkg::Options`, else the last `log` line of dpkg's own
    /// configuration (`/etc/dpkg/dpkg.cfg`, then `dpkg.cfg.d/`). `nil` when apt-config cannot
    /// say, or when dpkg keeps no log.
    /// Under a cancelled `cancellation` (apt-config killed) it is `nil`.
    public static func resolve(aptConfig: String?, dpkgConfiguration: String = "/etc/dpkg",
                               cancellation: CommandCancellation? = nil) -> DpkgLogSource? {
        guard let environment = try? APTEnvironment.resolve(aptConfig: aptConfig, cancellation: cancellation) else { return nil }
        return of(environment, dpkgConfiguration: dpkgConfiguration)
    }

    /// The database and log of `environment`, the log found as `resolve` finds it; in a chroot
    /// both dpkg's configuration (`dpkgConfiguration`, the chroot's `/etc/dpkg` by default) and
    /// the log are the chroot's, read where installtop reads them. (dpkg in a private root of
    /// this system reads this system's configuration.) `nil` when dpkg keeps no log there.
    public static func of(_ environment: APTEnvironment, dpkgConfiguration: String? = nil) -> DpkgLogSource? {
        let configuration = dpkgConfiguration ?? environment.chroot.map { APTEnvironment.path("/etc/dpkg", under: $0) } ?? "/etc/dpkg"
        guard let log = logPath(dpkgOptions: environment.dpkgOptions) ?? logPath(configuration: configuration) else { return nil }
        // In a chroot dpkg's options name paths inside it.
        let path = environment.chroot.map { APTEnvironment.path(log, under: $0) } ?? log
        return DpkgLogSource(administrativeDirectory: environment.administrativeDirectory, logPath: path)
    }

    /// The last `--log=FILE` or `--log FILE` of dpkg's options.
    static func logPath(dpkgOptions: [String]) -> String? {
        var found: String?
        for (index, option) in dpkgOptions.enumerated() {
            if option.hasPrefix("--log=") {
                found = String(option.dropFirst("--log=".count))
            } else if option == "--log", index + 1 < dpkgOptions.count {
                found = dpkgOptions[index + 1]
            }
        }
        return found
    }

    /// The last `log FILE` (or `log=FILE`) of `dpkg.cfg` and the files of `dpkg.cfg.d`, read in
    /// dpkg's order (the folder's files sorted by name, after `dpkg.cfg`).
    static func logPath(configuration folder: String) -> String? {
        let parts = ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/dpkg.cfg.d")) ?? []).sorted()
        var found: String?
        for file in [folder + "/dpkg.cfg"] + parts.map({ folder + "/dpkg.cfg.d/" + $0 }) {
            for line in ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n") {
                let text = line.trimmingSpaces
                guard text.hasPrefix("log"), !text.hasPrefix("#") else { continue }
                let value = text.dropFirst("log".count)
                guard let separator = value.first, separator == " " || separator == "=" || separator == "\t" else { continue }
                let path = value.dropFirst().trimmingSpaces
                if !path.isEmpty { found = path }
            }
        }
        return found
    }
}
