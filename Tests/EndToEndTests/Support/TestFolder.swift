import Foundation
import TestProcessSupport

/// A fresh folder under the system temporary directory for one test: its manifests, scripts,
/// pid files, history database and installtop's captured output. `remove()` deletes it.
struct TestFolder {
    let path: String

    /// Creates `…/installtop-e2e-<UUID>`.
    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/installtop-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A folder that exists already and that its owner removes (`SSHDTweakLab`'s), for
    /// `installtop(_:in:)`.
    init(existing path: String) {
        self.path = path
    }

    /// `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `contents` to `name` (mode 0755 when `executable`) and returns its path.
    @discardableResult
    func write(_ name: String, _ contents: String, executable: Bool = false) throws -> String {
        let target = file(name)
        if executable {
            try ExecutableFile.write(contents, to: target)
        } else {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: target))
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
        }
        return target
    }

    /// Writes an executable `/bin/sh` script with `body` and returns its path.
    @discardableResult
    func script(_ name: String, _ body: String) throws -> String {
        try write(name, "#!/bin/sh\n" + body + "\n", executable: true)
    }

    /// Deletes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
