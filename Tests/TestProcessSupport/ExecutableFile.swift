import Foundation
import Glibc

/// Executables the tests write or copy and then run, safe from "Text file busy".
///
/// Tests run side by side in one process, and a child that any of them is spawning while a
/// test writes a file holds a copy of the write descriptor until its own exec (the classic
/// race of multi-threaded programs that spawn): an exec of the file meanwhile fails with
/// ETXTBSY. Seen in RestartVerificationTests (a script run by a shell exited 126) and in
/// HostsCheckStandInTests (a copy of installtop could not start), each once under CPU hogs.
public enum ExecutableFile {
    /// Writes `text` to `path` (replacing what is there) with mode 0755, and returns once no
    /// process has it open for writing: a script a test runs, or gives a program to run.
    public static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try makeExecutable(path)
    }

    /// Gives the file a test wrote at `path` mode 0755, and returns once no process has it
    /// open for writing.
    public static func makeExecutable(_ path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        waitUntilNoneWrites(path)
    }

    /// Copies `source` to `destination` (the file's mode with it, as `FileManager.copyItem`)
    /// and returns once no process has the copy open for writing.
    public static func copy(_ source: String, to destination: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        waitUntilNoneWrites(destination)
    }

    /// Waits, at most 10 s, until no process has `file` open for writing. A read lease cannot
    /// be taken while the file is open for writing anywhere, the very condition exec refuses
    /// on; once the test's own descriptor is closed, no new copy of it can appear.
    public static func waitUntilNoneWrites(_ file: String) {
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
}
