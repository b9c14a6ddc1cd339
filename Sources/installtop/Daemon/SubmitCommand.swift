import ArgumentParser
import EngineDaemon
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TerminalUI

/// `installtop submit FILE`: queues a manifest's jobs on the running engine.
struct SubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Queue a manifest's jobs on the running engine (installtop serve); print their ids.",
        discussion: """
            The manifest is read and checked here, like `installtop validate`; the engine gets \
            the jobs in full (commands, working directories, environments), so it never reads \
            the file. Children get the engine's environment plus the manifest's `env`. \
            With --host or --hosts the same jobs go to every selected host's engine over ssh (at most \
            \(StatusCommand.hostsAtOnce) at a time): commands, paths and apt roots are then the host's; each \
            line starts with its host's name. A package job (`apt:`) waits on its engine with the plan \
            the engine made until it is confirmed (`installtop confirm JOB`, `y` in an attached monitor \
            or on the board) or declined; --yes starts it without asking. Exit status: 0 queued (on every host), 1 the engine refused or \
            could not be reached (on some host: its line says why), 2 invalid manifest or usage.
            """
    )

    @Argument(help: "The manifest (YAML) of jobs to queue.", completion: CompletionSources.manifest)
    var file: String

    @OptionGroup var socket: SocketOption

    @OptionGroup var hosts: HostsOptions

    @Option(help: ArgumentHelp("Seconds between SIGTERM and SIGKILL when these jobs are aborted (overrides the manifest).", valueName: "seconds"))
    var abortGrace: Double?

    @Flag(help: "Print {\"jobs\":[…]} instead of one line per job.")
    var json = false

    @Flag(name: [.short, .long], help: "Start package jobs without awaiting a confirm of their plan.")
    var yes = false

    func validate() throws {
        if let abortGrace, !(abortGrace >= 0 && abortGrace.isFinite) {
            throw ValidationError("--abort-grace must be a number of seconds, 0 or more; got \(abortGrace)")
        }
    }

    func run() throws {
        let manifest = try ManifestArgument.load(file, kinds: EngineHost.kinds())
        let jobs = manifest.jobs.map { job in
            JobSubmission(
                name: job.name, operation: job.operation,
                updates: job.updates.map { update in
                    var update = update
                    if let abortGrace { update.abortGrace = .milliseconds(Int64(abortGrace * 1000)) }
                    return update
                },
                stopOnFailure: job.stopOnFailure, kind: job.kind, yes: yes)
        }
        guard hosts.isRemote else {
            let reply = try DaemonRequest.perform(.submit(jobs), socket: socket, timeout: DaemonRequest.replyTimeout)
            print(ids: (reply.fields["jobs"]?.arrayValue ?? []).compactMap(\.intValue), of: jobs, prefix: "")
            return
        }
        try hosts.checkNoSocket(socket)
        let commands = try hosts.sshCommands()
        let replies = BoundedWorkers.map(commands, width: StatusCommand.hostsAtOnce) { command -> Result<[Int], DaemonError> in
            do throws(DaemonError) {
                let client = try EngineClient(ssh: command)
                defer { client.close() }
                let reply = try client.request(.submit(jobs), timeout: DaemonRequest.replyTimeout)
                return .success((reply.fields["jobs"]?.arrayValue ?? []).compactMap(\.intValue))
            } catch {
                return .failure(error)
            }
        }
        var allQueued = true
        for (command, reply) in zip(commands, replies) {
            switch reply {
            case .success(let ids):
                print(ids: ids, of: jobs, prefix: command.host + ": ")
            case .failure(let error):
                allQueued = false
                StandardOutput.stderr.line("installtop: " + EngineTarget.host(command).describe(error))
            }
        }
        if !allQueued { throw ExitCode(1) }
    }

    /// ` --host NAME` for the confirm command of a host's job (`prefix` is `NAME: `).
    private func hostOption(_ prefix: String) -> String {
        prefix.isEmpty ? "" : " --host " + prefix.dropLast(2)
    }

    /// The queued jobs, a line each (`prefix` first), or the one JSON document.
    private func print(ids: [Int], of jobs: [JobSubmission], prefix: String) {
        if json {
            StandardOutput.stdout.line(prefix + #"{"jobs":["# + ids.map(String.init).joined(separator: ",") + "]}")
            return
        }
        let sanitizer = TextEnvironment.sanitizer
        for job in jobs {
            guard let kind = job.kind, kind.kind.declaresJobs else { continue }
            StandardOutput.stdout.line(prefix + kind.queuedLine(name: sanitizer.sanitize(job.name), job: nil))
        }
        for (id, job) in zip(ids, jobs.filter { $0.kind?.kind.declaresJobs != true }) {
            let count = job.updates.count
            if let kind = job.kind {
                let waits = job.awaitsConfirmation ? "; it awaits a yes: installtop confirm \(id)\(hostOption(prefix)) (or --decline)" : ""
                StandardOutput.stdout.line(prefix + kind.queuedLine(name: sanitizer.sanitize(job.name), job: id) + waits)
                continue
            }
            StandardOutput.stdout.line(prefix + "job \(id) queued: \(sanitizer.sanitize(job.name)) (\(job.operation.name), \(count) update\(count == 1 ? "" : "s"))")
        }
    }
}
