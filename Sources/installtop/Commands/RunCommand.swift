import ArgumentParser
import Foundation
import InstallEngine

/// `installtop run FILE`: runs a manifest's jobs and monitors them.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a manifest's jobs and monitor them.",
        discussion: """
            Exit status: 0 all succeeded, 1 some update failed or succeeded with errors, \
            2 invalid usage or manifest, 3 aborted, 4 all succeeded and a reboot is required.
            """
    )

    @Argument(help: "The manifest (YAML) of jobs to run.")
    var file: String

    @OptionGroup var options: RunOptions

    func run() throws {
        let manifest = try ManifestArgument.load(file)
        let status = RunSession(manifest: manifest, options: options).run()
        throw ExitCode(status.rawValue)
    }
}
