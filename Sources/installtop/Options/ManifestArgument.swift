import ArgumentParser
import EngineWire
import InstallEngine

/// Loading the manifest a command was given, the same way for `run` and `submit`.
enum ManifestArgument {
    /// The manifest at `file`, its warnings printed on stderr; when it is invalid, prints every
    /// error (with file:line:column) and the count on stderr and exits with status 2. A file
    /// that cannot be read is one line, `installtop: FILE: no such file`.
    /// Its jobs may be of `kinds` (`EngineHost.kinds()`).
    static func load(_ file: String, kinds: JobKinds) throws -> Manifest {
        do {
            let manifest = try ManifestLoader.load(contentsOfFile: file, kinds: kinds.all)
            for warning in manifest.warnings { StandardOutput.stderr.line(warning.description) }
            return manifest
        } catch {
            if error.errors.count == 1, let only = error.errors.first, only.isAboutTheWholeFile {
                StandardOutput.stderr.line("installtop: \(only.description)")
                throw ExitCode(ExitStatus.invalidUsage.rawValue)
            }
            StandardOutput.stderr.line("\(error.description)\n\(error.countLine)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
    }
}
