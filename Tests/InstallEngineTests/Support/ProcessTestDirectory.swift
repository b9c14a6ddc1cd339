import Foundation
import Glibc

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
        Self.waitUntilNoneWrites(file)
        return file
    }

    /// Waits, at most 10 s, until no process has `file` open for writing. A child that another
    /// test was spawning while this one wrote the file holds a copy of the write descriptor
    /// until its own exec (the classic race of multi-threaded programs that spawn), and an exec
    /// of the file meanwhile fails with "Text file busy": a shell that runs it exits 126 (seen
    /// once in RestartVerificationTests under two CPU hogs). A read lease cannot be taken while
    /// the file is open for writing anywhere, the very condition exec refuses on; once the
    /// test's own descriptor is closed, no new copy can appear.
    private static func waitUntilNoneWrites(_ file: String) {
        // F_SETLEASE (F_LINUX_SPECIFIC_BASE), which Glibc's module does not export.
        let setLease: Int32 = 1024
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if fcntl(descriptor, setLease, Int32(F_RDLCK)) == 0 {
                _ = fcntl(descriptor, setLease, Int32(F_UNLCK))
                return
            }
            guard errno == EAGAIN else { return }
            usleep(1_000)
        }
    }

    /// The absolute path of `name` inside the directory.
    func file(_ name: String) -> String { "\(path)/\(name)" }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
