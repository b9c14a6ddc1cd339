#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics

/// Which packages ask for a reboot when a dnf job changes them: dnf's own rule, as
/// `dnf needs-restarting -r` applies it (dnf-plugins-core's `needs_restarting.py`, from Red
/// Hat's knowledge base 27943): the kernel, glibc, the firmware, systemd and D-Bus, plus every
/// name listed in the root's `/etc/dnf/plugins/needs-restarting.d/*.conf` (one per line).
public struct DNFRebootRule: Sendable, Hashable {
    /// dnf's built-in names (`NEED_REBOOT`).
    public static let builtIn: Set<String> = [
        "kernel", "kernel-rt", "glibc", "linux-firmware", "systemd", "dbus", "dbus-broker", "dbus-daemon",
    ]

    public let names: Set<String>

    public init(names: Set<String> = Self.builtIn) {
        self.names = names
    }

    /// dnf's names and those the root's configuration adds (`root` `nil`: this system's).
    public static func of(root: String?) -> DNFRebootRule {
        let folder = (root ?? "") + "/etc/dnf/plugins/needs-restarting.d"
        var names = builtIn
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for file in files where file.hasSuffix(".conf") {
            guard let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8) else { continue }
            for line in text.split(whereSeparator: \.isNewline) {
                let name = line.trimmingSpaces
                if !name.isEmpty, !name.hasPrefix("#") { names.insert(name) }
            }
        }
        return DNFRebootRule(names: names)
    }

    /// Whether installing, upgrading or removing `package` asks for a reboot.
    public func asksForReboot(_ package: String) -> Bool { names.contains(package) }
}
