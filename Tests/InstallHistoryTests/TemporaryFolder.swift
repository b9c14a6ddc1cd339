import Foundation

/// A unique folder under the system's temporary folder, removed when the value goes away, so
/// tests running in parallel never share a database.
final class TemporaryFolder: Sendable {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("installtop-history-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `name` inside the folder.
    func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }
}
