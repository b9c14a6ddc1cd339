import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// `installtop validate FILE`: checks a manifest and prints every problem, not just the first.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a manifest and print every error.",
        discussion: """
            On success prints `FILE: OK — N jobs, M updates` and exits 0. Otherwise prints each \
            error as `FILE:LINE:COLUMN: message` on standard error, then the number of errors, \
            and exits 2. A program given as a path (with a `/`) must be an executable file, \
            relative to the update's workdir; a program name not on PATH is a warning.
            """
    )

    @Argument(help: "The manifest (YAML) to check.", completion: CompletionSources.manifest)
    var file: String

    func run() throws {
        let manifest = try ManifestArgument.load(file, kinds: EngineHost.kinds())
        print(manifest.validationSummary)
    }
}
