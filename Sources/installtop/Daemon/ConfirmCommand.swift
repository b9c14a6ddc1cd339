import ArgumentParser

/// `installtop confirm JOB [--decline]`: what `y` and `n` answer in the monitor's plan dialog,
/// for a job that awaits a yes (an apt plan, an undo asked for with `u`).
struct ConfirmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "Let a job that awaits a yes (an apt plan) start on the running engine, or decline it.",
        discussion: """
            A declined job leaves without running or results. Exit status: 0 done, 1 refused (no such job, \
            or it awaits no yes) or no engine, 2 invalid usage (with --host or --hosts: not exactly one host \
            selected). With --host NAME the job is that host's, reached over ssh; its reply and refusals \
            start with the host's name.
            """
    )

    @Argument(help: "The job's number (from submit or status).")
    var job: Int

    @Flag(help: "Decline the job instead: it leaves without running, as n in the plan dialog.")
    var decline = false

    @OptionGroup var socket: SocketOption

    @OptionGroup var hosts: HostsOptions

    func run() throws {
        let target = try EngineTarget.single(socket: socket, hosts: hosts)
        try DaemonRequest.perform(.job(decline ? .decline(job: job) : .confirm(job: job)), on: target, timeout: DaemonRequest.replyTimeout)
        StandardOutput.stdout.line(target.prefix + (decline ? "job \(job): declined, it leaves without running" : "job \(job): confirmed, it may start"))
    }
}
