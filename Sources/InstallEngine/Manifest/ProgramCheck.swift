#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// What can be known before a command runs about the program it names (a manifest's update, a
/// policy's gate or notify command): one rule for both, so `validate` and `patch --check` agree.
public enum ProgramCheck {
    /// What is wrong with a program now.
    public enum Finding: Sendable, Hashable {
        /// A path (with a `/`) that is no executable file; the message says which and why.
        case unusable(String)
        /// A name not found on `PATH` now: only a warning, since it may be there when the
        /// command runs (a package installed before it may provide it).
        case notOnPath
    }

    /// `nil` when `program` is usable now: a path relative to `workingDirectory` must be an
    /// executable file; a name is looked up on `environment`'s `PATH`, else the process's.
    public static func finding(for program: String, workingDirectory: String, environment: [String: String] = [:]) -> Finding? {
        if program.contains("/") {
            let path = URL(fileURLWithPath: program, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true))
                .standardizedFileURL.path
            var info = stat()
            guard stat(path, &info) == 0 else { return .unusable("`\(program)` does not exist (\(path))") }
            guard info.st_mode & S_IFMT == S_IFREG else { return .unusable("`\(program)` is not a file (\(path))") }
            if access(path, X_OK) != 0 { return .unusable("`\(program)` is not executable (\(path)); make it so with chmod +x") }
            return nil
        }
        let searchPath = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"]
        if case .failure = ExecutableLookup.find(program, searchPath: searchPath, workingDirectory: workingDirectory) { return .notOnPath }
        return nil
    }
}
