#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A unique folder under /tmp, removed when the value goes away, so tests running in parallel
/// never share a database.
final class TemporaryFolder: Sendable {
    let path: String

    init() {
        path = "/tmp/installtop-sqlite-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }
}
