import ArgumentParser
import InstallEngine

/// Loading the manifest a command was given, the same way for `run` and `submit`.
enum ManifestArgument {
    /// The manifest at `file`; when it is invalid, prints every error (with file:line:column)
    /// and the count on stderr and exits with status 2.
    static func load(_ file: String) throws -> Manifest {
        do {
            return try ManifestLoader.load(contentsOfFile: file)
        } catch {
            StandardOutput.stderr.line("\(error.description)\n\(error.countLine)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
    }
}
