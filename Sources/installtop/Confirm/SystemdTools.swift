#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a commit-confirmed run hands work to in systemd (its revert timer's units, the
/// services it restarts again after a revert, the failed-units check), and whether systemd
/// runs this machine at all: read here and nowhere else.
///
/// Test hooks (never set them on a real machine): `INSTALLTOP_SYSTEMD_UNIT_DIR`, the absolute
/// folder the revert timer's units are written to instead of `/etc/systemd/system`;
/// `INSTALLTOP_SYSTEMCTL`, the absolute path of a program run instead of `/usr/bin/systemctl`;
/// `INSTALLTOP_SYSTEMD_RUNNING`, `1` to behave as if systemd ran this machine and `0` as if it
/// did not, whatever `/run/systemd/system` says. A relative path or another value is ignored,
/// so that a stray variable cannot point root's revert at a program or a folder found through
/// the current directory.
struct SystemdTools: Sendable, Hashable {
    /// Where the revert timer's unit files go: the administrator's units, which survive a reboot.
    var unitDirectory: String
    var systemctl: String
    /// Whether systemd is the machine's service manager: `/run/systemd/system` exists (what
    /// `sd_booted()` checks). False in most containers and in chroots.
    var running: Bool

    static let defaultUnitDirectory = "/etc/systemd/system"
    static let defaultSystemctl = "/usr/bin/systemctl"
    static let bootedMarker = "/run/systemd/system"

    /// The tools as this process finds them: the test hooks of `environment`, else the
    /// defaults and `/run/systemd/system`.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> SystemdTools {
        func path(_ name: String) -> String? { environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        let running: Bool
        switch environment["INSTALLTOP_SYSTEMD_RUNNING"] {
        case "1": running = true
        case "0": running = false
        default: running = FileManager.default.fileExists(atPath: bootedMarker)
        }
        return SystemdTools(unitDirectory: path("INSTALLTOP_SYSTEMD_UNIT_DIR") ?? defaultUnitDirectory,
                            systemctl: path("INSTALLTOP_SYSTEMCTL") ?? defaultSystemctl, running: running)
    }
}
