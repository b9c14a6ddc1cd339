import ArgumentParser
import EngineWire
import InstallEngine

/// `installtop cleanup JOB`: what `c` does in the monitor.
struct CleanupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cleanup",
        abstract: "Wait for a job to complete on the running engine, then remove it from the queue (its results stay in history).",
        discussion: """
            Exit status: 0 removed, 1 refused (no such job) or no engine, 2 invalid usage (with --host or \
            --hosts: not exactly one host selected). With --host NAME the job is that host's, reached over \
            ssh; its reply and refusals start with the host's name.
            """
    )

    @Argument(help: "The job's number (from submit or status).")
    var job: Int

    @OptionGroup var socket: SocketOption

    @OptionGroup var hosts: HostsOptions

    func run() throws {
        let target = try EngineTarget.single(socket: socket, hosts: hosts)
        try DaemonRequest.perform(.job(.cleanUp(job: job)), on: target, timeout: nil)
        StandardOutput.stdout.line(target.prefix + "job \(job): cleaned up")
    }
}
