import ArgumentParser
import EngineWire
import InstallEngine

/// `installtop abort JOB [--force]`: what `a` does in the monitor.
struct AbortCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abort",
        abstract: "Abort a job on the running engine (graceful: SIGTERM, then SIGKILL after the grace).",
        discussion: """
            Exit status: 0 abort requested, 1 refused (no such job, already completed) or no engine, 2 invalid usage \
            (with --host or --hosts: not exactly one host selected). With --host NAME the job is that host's, \
            reached over ssh; its reply and refusals start with the host's name.
            """
    )

    @Argument(help: "The job's number (from submit or status).")
    var job: Int

    @Flag(help: "Kill the job's processes at once (SIGKILL), as a second abort does.")
    var force = false

    @OptionGroup var socket: SocketOption

    @OptionGroup var hosts: HostsOptions

    func run() throws {
        let target = try EngineTarget.single(socket: socket, hosts: hosts)
        try DaemonRequest.perform(.job(.abort(job: job, force: force)), on: target, timeout: DaemonRequest.replyTimeout)
        StandardOutput.stdout.line(target.prefix + (force ? "job \(job): killing its processes" : "job \(job): abort requested"))
    }
}
