import InstallDrivers
import InstallEngine
import InstallHistory

/// apt's `undo` and `revert` (`PackageUndoCommand`, `PackageRevertCommand`).
extension APTPackageCommands {
    static var undoAbstract: String { "Put back every package a job run changed, from the versions kept for it." }

    static var undoDiscussion: String {
        """
        The run's upgraded packages go back to the versions it replaced (downgrades), the \
        packages it removed are installed again and those it installed are removed, in one \
        apt transaction resolved against the kept .debs, also when the archive no longer \
        offers them. Refused with exit status 2, changing nothing: a run the history does not \
        hold, a run that cannot be undone (installtop history --jobs says why), or a package \
        changed outside installtop since.
        """
    }

    /// `apt undo JOBRUN`: `"undoOf"` in its `job.queued`, and the run marked undone once it
    /// succeeded. Packages apt had marked automatic are marked so again afterwards (a local
    /// .deb makes them manual). With an engine on the socket, the engine's history holds the
    /// run there: it plans and runs the undo itself.
    static func undo(_ jobRun: Int, options: APTOptions) -> ExitStatus {
        let name = "\(tool) undo \(jobRun)"
        let route = APTEngineRoute.find(for: options, jobName: name)
        if case .engine(let client, let engine) = route {
            let request = PackageRequest.undo(run: jobRun, debs: [], removing: [])
            return APTEngineJob(request: request, options: options, client: client, engine: engine).run()
        }
        let preparation: APTUndoPreparation
        do {
            let run = try HistoryRunLookup.find(jobRun, history: options.run.history, tool: tool, verb: "undo")
            preparation = try APTUndoPreparation.prepare(undoing: run, aptConfig: options.aptConfig, chroot: options.chroot)
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run: \(error.message)")
            return .invalidUsage
        }
        // What the undo cannot put back, said before the plan and its yes.
        for left in preparation.leaves { StandardOutput.stderr.line("installtop: \(name): leaves \(left)") }
        let status = APTSession(request: preparation.request, options: options, expected: preparation.expectedChanges, route: route,
                                leaves: preparation.leaves).run()
        for warning in preparation.finish() { StandardOutput.stderr.line("installtop: \(name): \(warning)") }
        return status
    }

    static var undoExitStatuses: [(status: Int32, meaning: String)] { APTExitStatuses.undo }

    static var revertAbstract: String { "Revert a commit-confirmed (--confirm) run now: its undo from the kept versions." }

    static var revertDiscussion: String {
        """
        Acts on the apt root the armed job acted on, whatever --apt-config says, and waits while \
        another transaction holds dpkg's lock. A run being confirmed at the same moment is decided \
        by the history, once: the confirmation before the deadline wins, after it the revert. \
        Where systemd runs, the run's revert timer is stopped when the revert ends, and after a \
        revert the services the job restarted are restarted again (systemctl try-restart). \
        Exit status: 7 reverted, 0 with --due when nothing is due yet, 1 refused (not armed, \
        confirmed or reverted already, being reverted by another process) or the undo failed \
        (the run is then recorded expired, with why), 2 invalid usage.
        """
    }

    static var revertExitStatuses: [(status: Int32, meaning: String)] { APTExitStatuses.revert }
}
