import ArgumentParser
import InstallDrivers
import InstallEngine

/// `installtop apt repair JOBRUN`: reinstalls the packages of a job run that dpkg left half-way
/// or whose files differ from what dpkg recorded (after a kill, a crash, a full disk, a hand
/// that edited the wrong file), each at the version dpkg has, as one apt job planned and
/// confirmed like any other (`APTRepairPreparation`, Documentation/APT-JOBS.md).
struct APTRepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Reinstall the packages of a job run whose files differ from what dpkg recorded.",
        discussion: """
            Each package of the run that dpkg has is checked now: left half-way by dpkg, or \
            with files that differ from dpkg's record of them (dpkg --verify; configuration \
            files are left out: an edit of one is no damage). Each damaged package is \
            reinstalled at the version dpkg has, never a newer one: from an archive apt knows, \
            else from apt's cache, else from the version installtop kept for an undo, whichever \
            is exactly that build. What was found is said before the plan, and the files are \
            checked again after the job. Exit status: 0 nothing to repair, or repaired; 1 a \
            package is still not repaired, or one nothing could reinstall (each named), or the \
            plan was not confirmed; 2 refused, nothing changed (no such run, no history, no \
            damaged package apt can have again); 3 aborted; 5 dpkg was left broken.
            """)

    @Argument(help: ArgumentHelp("The job run whose packages to check and repair (installtop history --jobs).", valueName: "jobrun"))
    var jobRun: Int

    @OptionGroup var options: APTOptions

    func run() throws {
        let name = "apt repair \(jobRun)"
        let route = APTEngineRoute.find(for: options, jobName: name)
        // The engine's history holds what it ran; it settles its own interrupted runs.
        var history = options.run.history
        var recovering = true
        if case .engine(_, let engine) = route {
            history.historyDb = engine.history
            recovering = false
        }
        let preparation: APTRepairPreparation
        do {
            preparation = try APTRepairPreparation.prepare(run: jobRun, history: history, aptConfig: options.aptConfig,
                                                           chroot: options.chroot, recovering: recovering)
        } catch {
            route.close()
            StandardOutput.stderr.line("installtop: \(name): nothing was run: \(error.message)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
        for finding in preparation.findings { StandardOutput.stderr.line("installtop: \(name): \(finding)") }
        guard let request = preparation.request else {
            route.close()
            if preparation.damaged.isEmpty {
                StandardOutput.stdout.line("Nothing to repair: every package of run \(jobRun) that dpkg has is fully installed, "
                    + "with its files as dpkg recorded them (dpkg --verify).")
                throw ExitCode(ExitStatus.succeeded.rawValue)
            }
            StandardOutput.stderr.line("installtop: \(name): nothing was run: no damaged package can be had again")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
        var status = APTSession(request: request, options: options, route: route).run()
        let (notRepaired, warnings) = preparation.finish()
        for line in warnings + notRepaired { StandardOutput.stderr.line("installtop: \(name): \(line)") }
        if !notRepaired.isEmpty, status == .succeeded || status == .rebootRequired { status = .failed }
        throw ExitCode(status.rawValue)
    }
}
