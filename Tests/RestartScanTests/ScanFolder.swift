import Foundation
import RestartScan

/// A fresh folder with `proc/` and `root/` for a scanner under test; `remove()` deletes it.
struct ScanFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/installtop-restarts-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path + "/proc", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path + "/root", withIntermediateDirectories: true)
    }

    /// A scanner of this folder's `proc` and `root`.
    var scanner: RestartScanner { RestartScanner(procRoot: path + "/proc", root: path + "/root") }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` to `name`, making the folders on the way.
    func write(_ name: String, _ contents: String) throws {
        let target = file(name)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: target))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
