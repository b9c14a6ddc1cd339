import Foundation
import Glibc

/// A `sleep 600` the test owns that preloads `library` (LD_PRELOAD), for the restart scan's
/// tests; `stop()` kills it by pid and reaps it.
public struct PreloadingSleeper {
    public let process = Process()

    public init(preloading library: String) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["600"]
        process.environment = ["LD_PRELOAD": library, "PATH": "/usr/bin:/bin"]
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }

    /// Whether its maps show `path` (its loader has run).
    public func maps(_ path: String) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? "").contains(path)
    }

    public func stop() {
        kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    /// A copy of this machine's libz in the folder at `path` (the file, not its symbolic link).
    public static func libraryCopy(in path: String) throws -> String {
        let library = path + "/libz-copy.so.1"
        let original = URL(fileURLWithPath: "/lib/x86_64-linux-gnu/libz.so.1").resolvingSymlinksInPath().path
        try FileManager.default.copyItem(atPath: original, toPath: library)
        return library
    }
}
