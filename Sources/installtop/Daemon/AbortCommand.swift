import ArgumentParser

/// `installtop abort JOB [--force]`: what `a` does in the monitor.
struct AbortCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abort",
        abstract: "Abort a job on the running engine (graceful: SIGTERM, then SIGKILL after the grace).",
        discussion: "Exit status: 0 abort requested, 1 refused (no such job, already completed) or no engine."
    )

    @Argument(help: "The job's number (from submit or status).")
    var job: Int

    @Flag(help: "Kill the job's processes at once (SIGKILL), as a second abort does.")
    var force = false

    @OptionGroup var socket: SocketOption

    func run() throws {
        try DaemonRequest.perform(.job(.abort(job: job, force: force)), socket: socket, timeout: DaemonRequest.replyTimeout)
        StandardOutput.stdout.line(force ? "job \(job): killing its processes" : "job \(job): abort requested")
    }
}
