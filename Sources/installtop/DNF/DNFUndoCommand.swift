import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallEngine
import InstallHistory

/// `installtop dnf undo JOBRUN`: puts back every package a dnf job run changed, from the rpms
/// kept for it, as an uninstall job (Documentation/DNF-JOBS.md, "Undo"): planned and confirmed
/// like any dnf job, `"undoOf"` in its `job.queued`, and the run marked undone once it
/// succeeded.
struct DNFUndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Put back every package a dnf job run changed, from the rpms kept for it.",
        discussion: """
            The run's upgraded packages go back to the versions it replaced (downgrades), the \
            packages it removed or obsoleted are installed again and those it installed are \
            removed, in one dnf transaction resolved against the kept rpms, also when the \
            repositories no longer offer them, in the root the run acted on; name it \
            (--installroot) only for a run recorded before installtop recorded roots. Refused with exit status 2, changing nothing: a run the history does \
            not hold, a run that cannot be undone (installtop history --jobs says why), or a \
            package changed outside installtop since.
            """)

    @Argument(help: ArgumentHelp("The job run to undo (installtop history --jobs).", valueName: "jobrun"))
    var jobRun: Int

    @OptionGroup var options: DNFOptions

    func run() throws {
        let name = "dnf undo \(jobRun)"
        let named = options.installroot.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        do {
            guard geteuid() == 0 else { throw UndoRefusal(message: "dnf jobs need root" + DNFPlanner.hint("permission")) }
            let run = try HistoryRunLookup.find(jobRun, history: options.run.history, tool: "dnf", verb: "undo")
            let job = try DNFUndoRequest.job(undoing: run, named: named)
            var options = options
            options.installroot = job.installRoot
            let status = DNFSession(request: job.request, options: options, undoOf: jobRun).run()
            for warning in DNFUndoRequest.editWarnings(undoing: run, root: job.installRoot) {
                StandardOutput.stderr.line("installtop: \(name): \(warning)")
            }
            throw ExitCode(status.rawValue)
        } catch let refusal as UndoRefusal {
            StandardOutput.stderr.line("installtop: \(name): nothing was run: \(refusal.message)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
    }
}

extension DNFUndoCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { DNFExitStatuses.undo }
}
