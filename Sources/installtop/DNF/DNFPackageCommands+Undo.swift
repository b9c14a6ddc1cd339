#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallEngine
import InstallHistory

/// dnf's `undo` and `revert` (`PackageUndoCommand`, `PackageRevertCommand`).
extension DNFPackageCommands {
    static var undoAbstract: String { "Put back every package a dnf job run changed, from the rpms kept for it." }

    static var undoDiscussion: String {
        """
        The run's upgraded packages go back to the versions it replaced (downgrades), the \
        packages it removed or obsoleted are installed again and those it installed are \
        removed, in one dnf transaction resolved against the kept rpms, also when the \
        repositories no longer offer them, in the root the run acted on; name it \
        (--installroot) only for a run recorded before installtop recorded roots. Refused with exit status 2, changing nothing: a run the history does \
        not hold, a run that cannot be undone (installtop history --jobs says why), or a \
        package changed outside installtop since.
        """
    }

    /// `dnf undo JOBRUN` (Documentation/DNF-JOBS.md, "Undo"): `"undoOf"` in its
    /// `job.queued`, and the run marked undone once it succeeded.
    static func undo(_ jobRun: Int, options: DNFOptions) -> ExitStatus {
        let name = "\(tool) undo \(jobRun)"
        let named = options.installroot.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        do throws(UndoRefusal) {
            guard geteuid() == 0 else { throw UndoRefusal(message: "dnf jobs need root" + DNFPlanner.hint("permission")) }
            let run = try HistoryRunLookup.find(jobRun, history: options.run.history, tool: tool, verb: "undo")
            let job = try DNFUndoRequest.job(undoing: run, named: named)
            var options = options
            options.installroot = job.installRoot
            let status = DNFSession(request: job.request, options: options, undoOf: jobRun).run()
            for warning in DNFUndoRequest.editWarnings(undoing: run, root: job.installRoot) {
                StandardOutput.stderr.line("installtop: \(name): \(warning)")
            }
            return status
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run: \(error.message)")
            return .invalidUsage
        }
    }

    static var undoExitStatuses: [(status: Int32, meaning: String)] { DNFExitStatuses.undo }

    static var revertAbstract: String { "Revert a commit-confirmed (--confirm) dnf run now: its undo from the kept rpms." }

    static var revertDiscussion: String {
        """
        Acts on the root the armed job acted on, whatever --installroot says, and waits while \
        rpm's or dnf's lock of that root is held. A run being confirmed at the same moment is \
        decided by the history, once: the confirmation before the deadline wins, after it the \
        revert. Exit status: 7 reverted, 0 with --due when nothing is due yet, 1 refused (not \
        armed, an apt run, confirmed or reverted already, being reverted by another process) or \
        the undo failed (the run is then recorded expired, with why), 2 invalid usage.
        """
    }

    static var revertExitStatuses: [(status: Int32, meaning: String)] { DNFExitStatuses.revert }
}
