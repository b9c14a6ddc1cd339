import Foundation

/// What a dnf test must leave as it found it on the host: rpm's database (here and where
/// Debian's rpm puts it, in the home folder), dnf's state, caches, logs and configuration.
/// Every file under each path is recorded by size and modification time; take one before a
/// test and compare it with one taken after.
public struct HostRPMFingerprint: Equatable, CustomStringConvertible {
    /// The folders watched; a missing one is recorded as missing.
    public static let paths = ["/var/lib/rpm", "/root/.rpmdb", "/var/lib/dnf", "/var/cache/dnf", "/var/log/dnf.log",
                               "/var/log/dnf.rpm.log", "/var/log/hawkey.log", "/etc/dnf", "/etc/yum.repos.d"]

    private var files: [String: String]

    public init() {
        var files: [String: String] = [:]
        for path in Self.paths {
            files[path] = Self.describe(path)
            let children = FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []
            // rpm's shared-memory file changes when anything merely reads the database.
            for child in children where !child.hasSuffix("-shm") { files[path + "/" + child] = Self.describe(path + "/" + child) }
        }
        self.files = files
    }

    private static func describe(_ path: String) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "missing" }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size) bytes, modified \(modified)"
    }

    /// The paths that differ between the two (added, removed or changed).
    public func changes(since earlier: HostRPMFingerprint) -> [String] {
        Set(files.keys).union(earlier.files.keys).filter { files[$0] != earlier.files[$0] }.sorted()
    }

    public var description: String { "\(files.count) paths" }
}
