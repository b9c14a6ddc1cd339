import Glibc

/// Finds a command given by name (no `/`) the way `execvp` does, but in the child's `PATH`
/// (which the update's `env` may change) rather than installtop's own.
enum ExecutableLookup {
    /// glibc's search path when `PATH` is unset.
    static let defaultSearchPath = "/bin:/usr/bin"

    /// What `name` runs: itself when it holds a `/` (a path, relative to the child's working
    /// directory), else what `find` finds.
    static func resolve(_ name: String, searchPath: String?, workingDirectory: String?) -> Result<String, SystemError> {
        name.utf8.contains(UInt8(ascii: "/")) ? .success(name) : find(name, searchPath: searchPath, workingDirectory: workingDirectory)
    }

    /// The first executable regular file named `name` in `searchPath`. An empty entry means
    /// the working directory, and relative entries resolve against it, as they would in the
    /// child. Fails with `EACCES` when only non-executable candidates exist, `ENOENT` otherwise.
    static func find(_ name: String, searchPath: String?, workingDirectory: String?) -> Result<String, SystemError> {
        guard !name.isEmpty else { return .failure(SystemError(code: ENOENT)) }
        var sawDenied = false
        for directory in (searchPath ?? defaultSearchPath).split(separator: ":", omittingEmptySubsequences: false) {
            var checked = directory.isEmpty ? name : "\(directory)/\(name)"
            if let workingDirectory, checked.utf8.first != UInt8(ascii: "/") { checked = "\(workingDirectory)/\(checked)" }
            var info = stat()
            guard stat(checked, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if access(checked, X_OK) == 0 { return .success(checked) }
            sawDenied = true
        }
        return .failure(SystemError(code: sawDenied ? EACCES : ENOENT))
    }
}
