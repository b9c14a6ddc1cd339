import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import EngineWire

/// `installtop run FILE`: runs a manifest's jobs and monitors them.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a manifest's jobs and monitor them.",
        discussion: """
            Exit status: 0 all succeeded, 1 some update failed or succeeded with errors, \
            2 invalid usage or manifest, 3 aborted, 4 all succeeded and a reboot is required, \
            5 dpkg was left broken (an apt job's repair after a forced abort did not succeed).
            """
    )

    @Argument(help: "The manifest (YAML) of jobs to run.", completion: CompletionSources.manifest)
    var file: String

    @OptionGroup var options: RunOptions

    @OptionGroup var scheduling: SchedulingOptions

    func run() throws {
        // Package jobs keep the versions they replace for undo, as `installtop apt …` and `dnf …` do.
        let kinds = EngineHost.kinds(keeping: options.history)
        defer { kinds.removeFiles() }
        let manifest = try ManifestArgument.load(file, kinds: kinds)
        let planned: (jobs: [RunnableJob], sessions: [any SessionDriver])
        do {
            planned = try RunnableJob.jobs(of: manifest, file: file)
        } catch {
            StandardOutput.stderr.line("installtop: " + error.message)
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
        guard !planned.jobs.isEmpty || !planned.sessions.isEmpty else {
            StandardOutput.stdout.line("Nothing to do.")
            return
        }
        let status = RunSession(jobs: planned.jobs, sessions: planned.sessions, options: options, scheduling: scheduling,
                                engineRoot: EngineRoot()).run()
        throw ExitCode(status.rawValue)
    }
}
