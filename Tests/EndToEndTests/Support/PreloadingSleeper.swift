import Foundation
import Glibc

/// A `sleep 600` the test owns that preloads `library` (LD_PRELOAD), for the restart scan's
/// tests; `stop()` kills it by pid and reaps it.
struct PreloadingSleeper {
    let process = Process()

    init(preloading library: String) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["600"]
        process.environment = ["LD_PRELOAD": library, "PATH": "/usr/bin:/bin"]
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Whether its maps show `path` (its loader has run).
    func maps(_ path: String) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? "").contains(path)
    }

    func stop() {
        kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    /// A copy of this machine's libz in `folder` (the file, not its symbolic link).
    static func libraryCopy(in folder: TestFolder) throws -> String {
        let library = folder.file("libz-copy.so.1")
        let original = URL(fileURLWithPath: "/lib/x86_64-linux-gnu/libz.so.1").resolvingSymlinksInPath().path
        try FileManager.default.copyItem(atPath: original, toPath: library)
        return library
    }
}
