import Foundation
import Glibc

/// A small root directory for the restart scan's tests (root only): copies of `sleep` and the
/// libraries `ldd` says it needs, at their paths, so that `chroot PATH /usr/bin/sleep` runs in
/// it. Nothing is mounted in it; a program that needs more runs through `command(running:)`,
/// whose mounts live in a mount namespace of its own that ends with the program. `remove()`
/// deletes the folder.
public struct PrivateRoot {
    /// The folder, as the host sees it.
    public let path: String

    /// Root, with `chroot`, `unshare` and `ldd` on this machine.
    public static var available: Bool {
        let tools: [String] = ["/usr/sbin/chroot", "/usr/bin/unshare", "/usr/bin/ldd", "/usr/bin/sleep"]
        return getuid() == 0 && tools.allSatisfy { access($0, X_OK) == 0 }
    }

    /// Makes the root at `path` (a folder that need not exist) with `/usr/bin/sleep` and its
    /// libraries copied in.
    public init(at path: String) throws {
        self.path = path
        for file in ["/usr/bin/sleep"] + (try Self.libraries(of: "/usr/bin/sleep")) {
            try copy(file, to: file)
        }
        try FileManager.default.createDirectory(atPath: path + "/proc", withIntermediateDirectories: true)
    }

    /// Copies the content of the host's `source` (its symbolic links followed) to `inside`, a
    /// path in this root, making the folders on the way.
    public func copy(_ source: String, to inside: String) throws {
        let target = path + inside
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try ExecutableFile.copy(URL(fileURLWithPath: source).resolvingSymlinksInPath().path, to: target)
    }

    /// A `sleep 600` chrooted into this root, preloading `library` (a path inside it).
    public func sleeper(preloading library: String) throws -> PreloadingSleeper {
        try PreloadingSleeper(preloading: library, chrootInto: path)
    }

    /// The program and arguments that run `executable` (a host path) with `arguments` inside
    /// this root: `unshare` makes a private mount namespace, binds the host's `/usr`, `/lib`,
    /// `/lib64`, `/bin`, `/sbin`, the executable's folder and those of its libraries (`ldd`) at
    /// the same paths in the root, mounts a `proc` on its `/proc`, and `chroot`s into it. The
    /// root's own copies under those folders are hidden from that program only; the mounts go
    /// with its namespace when it exits, also when a test fails.
    public func command(running executable: String, _ arguments: [String]) throws -> (executable: String, arguments: [String]) {
        let system: [String] = ["/usr", "/lib", "/lib64", "/bin", "/sbin"]
        var folders = system.filter { access($0, F_OK) == 0 }
        for file in [executable] + (try Self.libraries(of: executable)) {
            let folder = (URL(fileURLWithPath: file).resolvingSymlinksInPath().path as NSString).deletingLastPathComponent
            if !folders.contains(where: { folder == $0 || folder.hasPrefix($0 + "/") }) { folders.append(folder) }
        }
        let script = """
            set -e
            root=$1; shift
            for folder in \(folders.map { "'\($0)'" }.joined(separator: " ")); do
                mkdir -p "$root$folder"
                mount --bind "$folder" "$root$folder"
            done
            mount -t proc proc "$root/proc"
            exec chroot "$root" "$@"
            """
        return ("/usr/bin/unshare", ["--mount", "--propagation", "private", "--", "/bin/sh", "-c", script, "sh", path, executable] + arguments)
    }

    /// Deletes the folder (nothing is mounted in it outside the namespaces `command` makes).
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The files `ldd` names for `executable`: `NAME => /path (…)` and `/path (…)` lines.
    static func libraries(of executable: String) throws -> [String] {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [executable]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").compactMap { line in
            let words = line.split { $0 == " " || $0 == "\t" }
            if let arrow = words.firstIndex(of: "=>"), arrow + 1 < words.count, words[arrow + 1].hasPrefix("/") { return String(words[arrow + 1]) }
            return words.first.flatMap { $0.hasPrefix("/") ? String($0) : nil }
        }
    }
}
