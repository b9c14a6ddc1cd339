import Foundation
import Glibc
import TestProcessSupport

/// A fresh temporary directory for one test, with helpers to put scripts in it.
struct ProcessTestDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("installtop-process-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `body` under a `#!/bin/sh` line to `name` with the given permissions; returns its
    /// absolute path.
    @discardableResult
    func script(_ name: String, _ body: String, permissions: Int = 0o755) throws -> String {
        let file = "\(path)/\(name)"
        try ("#!/bin/sh\n" + body + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: file)
        // Run as soon as it is written: see ExecutableFile.
        ExecutableFile.waitUntilNoneWrites(file)
        return file
    }

    /// The absolute path of `name` inside the directory.
    func file(_ name: String) -> String { "\(path)/\(name)" }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
