import ArgumentParser
import InstallHistory
import EngineWire
import InstallEngine

/// `installtop confirm JOB [--decline]`: what `y` and `n` answer in the monitor's plan dialog,
/// for a job that awaits a yes (an apt plan, an undo asked for with `u`). `installtop confirm
/// --run RUN [--extend DURATION]`: keeps a commit-confirmed run (`--confirm`), or moves its
/// deadline, in the history (Documentation/COMMIT-CONFIRMED.md). `installtop confirm --run RUN
/// --check`: its engine runs the run's checks again now, as a patch night does after a reboot.
struct ConfirmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "Let a job that awaits a yes (an apt plan) start on the running engine, or decline it.",
        discussion: """
            A declined job leaves without running or results. Exit status: 0 done, 1 refused (no such job, \
            or it awaits no yes) or no engine, 2 invalid usage (with --host or --hosts: not exactly one host \
            selected). With --host NAME the job is that host's, reached over ssh; its reply and refusals \
            start with the host's name.
            With --run RUN (a run of installtop history --jobs, not a job number) it keeps a run armed \
            with --confirm: the run stays and is never reverted; with --extend DURATION its deadline moves \
            to DURATION from now instead (never earlier); where systemd runs, the run's revert timer is \
            stopped or moved with it. At or after the deadline both are refused: the revert has won. With --host \
            NAME the run is that host's, decided by its engine. Exit status: 0 done, 1 refused (not armed, too late, \
            settled already), 2 invalid usage.
            With --run RUN --check the run is neither kept nor moved: its engine (this machine's, or --host's) runs \
            its checks again now, those its arming ran, compares them with the checks before its job and records \
            them; a regression is reverted at once when the run was armed with --revert-on-regression, else at \
            its deadline unless confirmed. Exit status: 0 the checks passed, 1 a check regressed, or refused (not \
            armed, no engine), 2 invalid usage.
            """
    )

    @Argument(help: "The job's number (from submit or status).")
    var job: Int?

    @Option(name: .customLong("run"), help: ArgumentHelp("A commit-confirmed run (installtop history --jobs) to keep, instead of a job.", valueName: "jobrun"))
    var armedRun: Int?

    @Option(help: ArgumentHelp("With --run: wait this much longer from now (90s, 5m, 1h) instead of keeping the run.", valueName: "duration"))
    var extend: String?

    @Flag(help: "With --run: run the run's checks again now on its engine, instead of keeping it; exit 1 if one regressed.")
    var check = false

    @OptionGroup var history: HistoryOptions

    @Flag(help: "Decline the job instead: it leaves without running, as n in the plan dialog.")
    var decline = false

    @OptionGroup var socket: SocketOption

    @OptionGroup var hosts: HostsOptions

    func validate() throws {
        if (job == nil) == (armedRun == nil) { throw ValidationError("name a job, or a commit-confirmed run with --run") }
        if armedRun == nil && (extend != nil || history.historyDb != nil || check) { throw ValidationError("--extend, --check and --history-db go with --run") }
        if check && extend != nil { throw ValidationError("--check runs the checks and keeps nothing; --extend moves the deadline: one at a time") }
        if check && history.historyDb != nil {
            throw ValidationError("--check asks the engine, which runs the checks in its own history: --history-db is not needed")
        }
        if armedRun != nil && hosts.isRemote && history.historyDb != nil {
            throw ValidationError("--history-db is this machine's: with --host the host's engine decides in its own history")
        }
        if armedRun != nil && decline { throw ValidationError("--decline is for a job; an armed run is reverted with installtop apt revert RUN (installtop dnf revert RUN for a dnf run)") }
        if let extend, (ConfirmDuration.seconds(extend) ?? 0) <= 0 {
            throw ValidationError("--extend takes a duration such as 90s, 5m or 1h30m; got '\(extend)'")
        }
    }

    func run() throws {
        if let armedRun, check {
            let target = try EngineTarget.single(socket: socket, hosts: hosts)
            let reply = try DaemonRequest.perform(.checkRun(run: armedRun), on: target, timeout: DaemonRequest.replyTimeout)
            let checked: ChecksRunAgain
            do {
                checked = try ChecksRunAgain(fields: reply.fields)
            } catch {
                StandardOutput.stderr.line("installtop: \(target.prefix)\(error)")
                throw ExitCode(ExitStatus.failed.rawValue)
            }
            StandardOutput.stdout.line(target.prefix + checked.said)
            if !checked.regressions.isEmpty { throw ExitCode(ExitStatus.failed.rawValue) }
            return
        }
        if let armedRun {
            let seconds = extend.flatMap(ConfirmDuration.seconds)
            // A host's run is decided by its engine, in its history (the board's `K` does the same).
            guard hosts.isRemote else {
                throw ExitCode(ArmedRunConfirmation(jobRun: Int64(armedRun), extend: seconds, history: history).run().rawValue)
            }
            let target = try EngineTarget.single(socket: socket, hosts: hosts)
            let reply = try DaemonRequest.perform(.confirmRun(run: armedRun, extend: seconds), on: target, timeout: DaemonRequest.replyTimeout)
            StandardOutput.stdout.line(target.prefix + (reply.fields["said"]?.stringValue ?? "run \(armedRun): done"))
            return
        }
        guard let job else { throw ExitCode(ExitStatus.invalidUsage.rawValue) }
        let target = try EngineTarget.single(socket: socket, hosts: hosts)
        try DaemonRequest.perform(.job(decline ? .decline(job: job) : .confirm(job: job)), on: target, timeout: DaemonRequest.replyTimeout)
        StandardOutput.stdout.line(target.prefix + (decline ? "job \(job): declined, it leaves without running" : "job \(job): confirmed, it may start"))
    }
}
