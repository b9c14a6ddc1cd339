#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One package an upgrade would change, as `apt-get -s upgrade` says it: `Inst P [old] (new
/// origin [arch])`.
public struct PendingPackage: Sendable, Hashable {
    public var name: String
    /// The installed version; `nil` for a package the upgrade would newly install (an apt
    /// whose `upgrade` installs new dependencies).
    public var oldVersion: String?
    public var newVersion: String
    /// Where the new version comes from, as apt names it: its releases' `Label:Version/Suite`,
    /// comma-separated when several offer it (`Debian-Security:12/stable-security`), or the
    /// site for a repository without a Release file (`localhost` for `file:`).
    public var origin: String
    /// The architecture apt names (`amd64`, `all`), when it names one.
    public var architecture: String?
    /// When the engine first listed this new version as pending (its history's record, kept
    /// across restarts): the age a patch night's age gate reads. `nil` when the engine keeps
    /// no history, or for an engine older than the field.
    public var firstSeen: Date?

    public init(name: String, oldVersion: String?, newVersion: String, origin: String, architecture: String? = nil, firstSeen: Date? = nil) {
        self.name = name
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.origin = origin
        self.architecture = architecture
        self.firstSeen = firstSeen
    }

    /// Whether the new version is a security update: one of its origins names a suite or label
    /// with `-security` in it, case aside (`stable-security`, `jammy-security`,
    /// `Debian-Security`). The rule unattended-upgrades' default origins follow, by suite name
    /// only: an origin without a Release file (`localhost`) is never security.
    public var isSecurity: Bool { Self.isSecurity(origin: origin) }

    /// The rule of `isSecurity` for an origin text as apt prints it.
    public static func isSecurity(origin: String) -> Bool {
        origin.split(separator: ",").contains { $0.lowercased().contains("-security") }
    }

    /// `openssl 3.0.14 → 3.0.15`, or `curl (new) 7.88.1` for a package not installed before.
    public var versionText: String {
        guard let oldVersion else { return "(new) \(newVersion)" }
        return "\(oldVersion) → \(newVersion)"
    }
}
