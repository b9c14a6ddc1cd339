import ArgumentParser
import InstallDrivers
import InstallEngine
import InstallHistory

/// `installtop apt undo JOBRUN`: puts back every package a job run changed, from the versions
/// kept for it, as an uninstall job (Documentation/UNDO.md): planned and confirmed like any apt
/// job, `"undoOf"` in its `job.queued`, and the run marked undone once it succeeded. Packages
/// apt had marked automatic are marked so again afterwards (a local .deb makes them manual).
struct APTUndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Put back every package a job run changed, from the versions kept for it.",
        discussion: """
            The run's upgraded packages go back to the versions it replaced (downgrades), the \
            packages it removed are installed again and those it installed are removed, in one \
            apt transaction resolved against the kept .debs, also when the archive no longer \
            offers them. Refused with exit status 2, changing nothing: a run the history does not \
            hold, a run that cannot be undone (installtop history --jobs says why), or a package \
            changed outside installtop since.
            """)

    @Argument(help: ArgumentHelp("The job run to undo (installtop history --jobs).", valueName: "jobrun"))
    var jobRun: Int

    @OptionGroup var options: APTOptions

    func run() throws {
        // The engine's history holds the run there; it plans and runs the undo itself.
        let name = "apt undo \(jobRun)"
        let route = APTEngineRoute.find(for: options, jobName: name)
        if case .engine(let client, let engine) = route {
            let request = PackageRequest.undo(run: jobRun, debs: [], removing: [])
            throw ExitCode(APTEngineJob(request: request, options: options, client: client, engine: engine).run().rawValue)
        }
        let preparation: APTUndoPreparation
        do {
            let run = try HistoryRunLookup.find(jobRun, history: options.run.history, tool: "apt", verb: "undo")
            preparation = try APTUndoPreparation.prepare(undoing: run, aptConfig: options.aptConfig, chroot: options.chroot)
        } catch {
            StandardOutput.stderr.line("installtop: apt undo \(jobRun): nothing was run: \(error.message)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
        // What the undo cannot put back, said before the plan and its yes.
        for left in preparation.leaves { StandardOutput.stderr.line("installtop: apt undo \(jobRun): leaves \(left)") }
        let status = APTSession(request: preparation.request, options: options, expected: preparation.expectedChanges, route: route,
                                leaves: preparation.leaves).run()
        for warning in preparation.finish() { StandardOutput.stderr.line("installtop: apt undo \(jobRun): \(warning)") }
        throw ExitCode(status.rawValue)
    }
}

extension APTUndoCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { APTExitStatuses.undo }
}
