#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import TestProcessSupport

/// A temporary folder for a test's policy, inventory and stamp, removed by `remove()`.
struct PolicyFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/installtop-policy-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        path = String(cString: made)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name`, mode 0755 when `executable`.
    func write(_ name: String, _ text: String, executable: Bool = false) throws {
        if executable {
            try ExecutableFile.write(text, to: file(name))
        } else {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
