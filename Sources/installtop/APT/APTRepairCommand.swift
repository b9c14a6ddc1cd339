import ArgumentParser
import EngineDaemon
import EngineWire
import InstallDrivers
import InstallEngine
import InstallHistory
import RestartScan

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
            checked again after the job. When dpkg was left half-way (apt plans nothing then), it \
            is finished first with the forced stop's repair (dpkg --configure -a, then apt-get -f \
            install), as a job of its own, asked for and recorded like any. Exit status: 0 \
            nothing to repair, or repaired; 1 a package is still not repaired, or one nothing \
            could reinstall (each named), or a plan was not confirmed; 2 refused, nothing changed \
            (no such run, no history, no damaged package apt can have again); 3 aborted; 5 dpkg \
            was left unfinished (the commands that finish it are named).
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
        let (run, environment) = try runAndRoot(history: history, recovering: recovering, route: route)
        // apt plans nothing while dpkg is left half-way: that is finished first, and the run's
        // packages are looked at afterwards.
        let halfWay = APTInterruptedDpkg.halfWay(in: environment)
        if !halfWay.isEmpty {
            do {
                try finish(halfWay, in: environment, history: history, route: route)
            } catch {
                route.close()
                throw error
            }
        }
        let preparation: APTRepairPreparation
        do {
            preparation = try APTRepairPreparation.prepare(run: run, environment: environment, history: history)
        } catch {
            throw refusal(error, route: route)
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

    /// The run from `history` and the root it is checked in, both before anything runs.
    /// - Parameter recovering: whether runs whose engine died are settled first (not when an
    ///   engine that records into that history will run the repair: it settles its own).
    /// - Throws: exit status 2 when either is refused: no history or no such run, a root apt
    ///   cannot resolve (the route's engine link closed then).
    private func runAndRoot(history: HistoryOptions, recovering: Bool, route: APTEngineRoute) throws -> (JobRun, APTEnvironment) {
        let run: JobRun
        do {
            run = try HistoryRunLookup.find(jobRun, history: history, tool: "apt", verb: "repair", recovering: recovering)
        } catch {
            throw refusal(error, route: route)
        }
        do {
            return (run, try APTEnvironment.resolve(aptConfig: options.aptConfig, chroot: options.chroot))
        } catch {
            throw refusal(UndoRefusal(message: error.message), route: route)
        }
    }

    /// Says that nothing was run and why, closes the route's engine link, and gives exit status 2.
    private func refusal(_ error: UndoRefusal, route: APTEngineRoute) -> ExitCode {
        route.close()
        StandardOutput.stderr.line("installtop: apt repair \(jobRun): nothing was run: \(error.message)")
        return ExitCode(ExitStatus.invalidUsage.rawValue)
    }

    /// Finishes what dpkg was left half-way with the forced stop's repair, as a job of its own
    /// (`installtop apt finish`, one update): shown in the monitor or as plain lines, recorded
    /// in `history`, and asked for like any job (its dialog in the monitor; `--yes` off a
    /// terminal). With the machine's engine (`route`), the job runs there, as the reinstall
    /// does: submitted awaiting the attached monitor's yes (`JobSubmission.asks`) unless
    /// `--yes`, recorded in the engine's history, followed here (`EngineJobFollower`).
    /// - Throws: exit status 1 when it is not confirmed (nothing run), 3 when it is aborted, 5
    ///   when dpkg is still left unfinished (the last line names the commands that finish it).
    private func finish(_ halfWay: [String: APTPackageState], in environment: APTEnvironment, history: HistoryOptions,
                        route: APTEngineRoute) throws {
        let name = "installtop: apt repair \(jobRun)"
        let packages = halfWay.keys.sorted().map { "\($0) \(halfWay[$0]?.description ?? "")" }.joined(separator: ", ")
        StandardOutput.stderr.line("\(name): dpkg left \(halfWay.count == 1 ? "1 package" : "\(halfWay.count) packages") half-way "
            + "(\(packages)); apt plans nothing until it is finished: first dpkg --configure -a, then apt-get -f install, as after a forced stop")
        if !options.yes && OutputMode(options: options.run) != .monitor {
            StandardOutput.stderr.line("installtop: not run: confirm with --yes (there is no terminal to ask on)")
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        let executable = ProcFS().ownExecutable() ?? CommandLine.arguments[0]
        let arguments = [executable, "apt", "finish"] + (options.aptConfig.map { ["--apt-config", $0] } ?? [])
            + (options.chroot.map { ["--chroot", $0] } ?? [])
        let update = Update(id: "dpkg", title: "dpkg --configure -a, then apt-get -f install: \(packages)", installCommand: .argv(arguments))
        let job = RunnableJob(name: "apt repair \(jobRun) · finish what dpkg left half-way", operation: .install, updates: [update],
                              needsConfirmation: !options.yes)
        let status: ExitStatus
        if case .engine(let client, let engine) = route {
            status = inEngine(job, client: client, engine: engine)
            // Declined (or refused) there: nothing ran, dpkg is as it was.
            if status == .failed || status == .invalidUsage, APTInterruptedDpkg.halfWay(in: environment) == halfWay {
                throw ExitCode(status.rawValue)
            }
        } else {
            var runOptions = options.run
            runOptions.history = history
            let (ran, declined) = RunSession(jobs: [job], options: runOptions).runReportingDeclines()
            if !declined.isEmpty { throw ExitCode(ExitStatus.failed.rawValue) }
            status = ran
        }
        if status == .aborted { throw ExitCode(ExitStatus.aborted.rawValue) }
        if let unfinished = APTInterruptedDpkg.leftUnfinished(in: environment) {
            StandardOutput.stderr.line("\(name): \(unfinished)")
            throw ExitCode(ExitStatus.leftBroken.rawValue)
        }
    }

    /// Runs the finishing `job` in the machine's engine and follows it to its end; its status.
    /// The engine runs the command as itself (root), in the root it shares with this command.
    private func inEngine(_ job: RunnableJob, client: EngineClient, engine: EngineIdentity) -> ExitStatus {
        StandardOutput.stderr.line("installtop: \(job.name) runs in the machine's engine (pid \(engine.pid), \(client.path)), recorded in "
            + "\(engine.history ?? "its history"): it goes on if this terminal closes; installtop attach watches it")
        let submission = JobSubmission(name: job.name, operation: job.operation, updates: job.updates, stopOnFailure: false,
                                       yes: options.yes, asks: !options.yes)
        let number: Int
        do throws(DaemonError) {
            let reply = try client.request(.submit([submission]), timeout: DaemonRequest.replyTimeout)
            guard let first = reply.fields["jobs"]?.arrayValue?.first?.intValue else {
                throw .unexpectedMessage("submit's reply names no job")
            }
            number = first
        } catch {
            StandardOutput.stderr.line("installtop: \(job.name): nothing was run: \(error)")
            return .invalidUsage
        }
        return EngineJobFollower(path: client.path, job: number, options: options.run, engine: engine).run()
    }
}

extension APTRepairCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] { APTExitStatuses.repair }
}
