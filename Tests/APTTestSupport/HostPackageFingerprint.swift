import Foundation

/// What a test must leave as it found it on the host: dpkg's status file, dpkg's log and the
/// reboot markers. Take one before a test and compare it with one taken after.
public struct HostPackageFingerprint: Equatable, CustomStringConvertible {
    private var files: [String: Data?]

    /// The files watched; a missing one is recorded as missing.
    public static let paths = ["/var/lib/dpkg/status", "/var/log/dpkg.log", "/run/reboot-required", "/run/reboot-required.pkgs"]

    public init() {
        files = Dictionary(uniqueKeysWithValues: Self.paths.map { ($0, FileManager.default.contents(atPath: $0)) })
    }

    /// The paths whose contents differ between the two.
    public func changes(since earlier: HostPackageFingerprint) -> [String] {
        Self.paths.filter { files[$0] != earlier.files[$0] }
    }

    public var description: String {
        Self.paths.map { "\($0): \(files[$0]??.count.description ?? "missing") bytes" }.joined(separator: ", ")
    }
}
