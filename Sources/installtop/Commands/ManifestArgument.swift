import ArgumentParser
import InstallEngine

/// Loading the manifest a command was given, the same way for `run` and `submit`.
enum ManifestArgument {
    /// The manifest at `file`, its warnings printed on stderr; when it is invalid, prints every
    /// error (with file:line:column) and the count on stderr and exits with status 2.
    static func load(_ file: String) throws -> Manifest {
        do {
            let manifest = try ManifestLoader.load(contentsOfFile: file)
            for warning in manifest.warnings { StandardOutput.stderr.line(warning.description) }
            return manifest
        } catch {
            StandardOutput.stderr.line("\(error.description)\n\(error.countLine)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
    }
}
