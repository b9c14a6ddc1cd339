import ArgumentParser

/// `installtop cleanup JOB`: what `c` does in the monitor.
struct CleanupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cleanup",
        abstract: "Wait for a job to complete on the running engine, then remove it from the queue (its results stay in history).",
        discussion: "Exit status: 0 removed, 1 refused (no such job) or no engine."
    )

    @Argument(help: "The job's number (from submit or status).")
    var job: Int

    @OptionGroup var socket: SocketOption

    func run() throws {
        try DaemonRequest.perform(.job(.cleanUp(job: job)), socket: socket, timeout: nil)
        StandardOutput.stdout.line("job \(job): cleaned up")
    }
}
