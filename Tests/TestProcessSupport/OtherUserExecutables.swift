import Foundation
import Glibc

/// Copies of this checkout's executables (installtop, installtop-relay …) that a user who is not
/// root can run, for the tests that run them as such a user through setpriv. The checkout may
/// sit in a folder closed to others (a clone under /root, mode 0700), where that user cannot
/// even start its binaries: every wait for their answer would then run out, one after another,
/// before a test failed with `Permission denied`. The copies go in a fresh folder under /tmp
/// (mode 0755, its parents open to all), with the shared libraries they load from folders
/// closed to others (a toolchain under /root) beside them, found there through the `$ORIGIN`
/// of their run path. `remove()` deletes the folder.
public struct OtherUserExecutables: Sendable {
    /// The folder of the copies.
    public let folder: String

    /// The copy of the executable whose file name is `name`.
    public func path(_ name: String) -> String {
        folder + "/" + name
    }

    /// Copies `executables` (paths) and checks that uid `uid` with group `gid` (and no other)
    /// can run the first, by running it with `probe` through setpriv and a shell.
    /// - Throws: `OtherUserExecutablesError` at once, saying what stands in the way: no setpriv,
    ///   a copy that failed, or the probe's own words when it does not exit 0.
    public init(copying executables: [String], probe: [String] = ["--version"], uid: uid_t = 65_534, gid: gid_t = 65_534) throws {
        let setpriv = "/usr/bin/setpriv"
        guard access(setpriv, X_OK) == 0 else {
            throw OtherUserExecutablesError("setpriv (util-linux) is needed to run programs as uid \(uid)")
        }
        // /tmp and not TMPDIR: TMPDIR may be a folder of the test's, closed to others.
        var template = Array("/tmp/installtop-other-user-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw OtherUserExecutablesError("cannot make a folder under /tmp: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        do {
            guard chmod(folder, 0o755) == 0 else {
                throw OtherUserExecutablesError("chmod 0755 \(folder): \(String(cString: strerror(errno)))")
            }
            var libraries: Set<String> = []
            for executable in executables {
                let copy = path((executable as NSString).lastPathComponent)
                try ExecutableFile.copy(URL(fileURLWithPath: executable).resolvingSymlinksInPath().path, to: copy)
                guard chmod(copy, 0o755) == 0 else {
                    throw OtherUserExecutablesError("chmod 0755 \(copy): \(String(cString: strerror(errno)))")
                }
                libraries.formUnion(try PrivateRoot.libraries(of: executable).filter { !Self.isOpenToOthers($0) })
            }
            for library in libraries {
                let copy = path((library as NSString).lastPathComponent)
                guard !FileManager.default.fileExists(atPath: copy) else { continue }
                try FileManager.default.copyItem(atPath: URL(fileURLWithPath: library).resolvingSymlinksInPath().path, toPath: copy)
                chmod(copy, 0o644)
            }
            if let first = executables.first {
                try Self.probe([path((first as NSString).lastPathComponent)] + probe, setpriv: setpriv, uid: uid, gid: gid)
            }
        } catch {
            remove()
            throw error
        }
    }

    /// Deletes the folder and the copies.
    public func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Whether a user who owns neither `path` nor a folder above it may read it: it and every
    /// folder on the way are open to others.
    private static func isOpenToOthers(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IROTH != 0 else { return false }
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty {
            guard stat(folder, &info) == 0, info.st_mode & S_IXOTH != 0 else { return false }
            if folder == "/" { break }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return true
    }

    /// Runs `command` (the copy and its arguments) as `uid` with group `gid` alone, through
    /// setpriv and a shell as ssh or a script would (setpriv itself may exec a file the user could
    /// not reach), waiting at most a minute.
    /// - Throws: `OtherUserExecutablesError` with how it ended and its stderr unless it exits 0.
    private static func probe(_ command: [String], setpriv: String, uid: uid_t, gid: gid_t) throws {
        let process = Process()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "/bin/sh", "-c", "exec \"$0\" \"$@\""] + command
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        // Our own child, by pid: a probe that hangs is ended with the test's failure.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let ending = process.terminationReason == .exit ? "status" : "signal"
            throw OtherUserExecutablesError("uid \(uid) cannot run \(command.joined(separator: " ")): it ended with \(ending) \(process.terminationStatus): \(said)")
        }
    }
}
