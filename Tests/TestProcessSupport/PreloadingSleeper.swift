import Foundation
import Glibc

/// A `sleep 600` the test owns, for the restart scan's tests: it preloads a library
/// (LD_PRELOAD) or runs a copy of `sleep`, so a test can replace what it maps; `stop()` kills
/// it by pid and reaps it.
public struct PreloadingSleeper {
    public let process = Process()

    /// - Parameters:
    ///   - library: preloaded when not empty; `""` maps nothing beyond `sleep`'s own files.
    ///   - executable: the `sleep` to run (a copy the test may replace).
    ///   - root: when given, `chroot ROOT EXECUTABLE 600` (`chroot` execs the sleep, so the pid
    ///     stays); `executable` and `library` are then paths inside that root.
    public init(preloading library: String, executable: String = "/bin/sleep", chrootInto root: String? = nil) throws {
        if let root {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/chroot")
            process.arguments = [root, executable == "/bin/sleep" ? "/usr/bin/sleep" : executable, "600"]
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["600"]
        }
        var environment = ["PATH": "/usr/bin:/bin"]
        if !library.isEmpty { environment["LD_PRELOAD"] = library }
        process.environment = environment
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
